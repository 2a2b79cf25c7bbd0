import { numberTypeOf } from './normalize';
import { lineTypeFromStructure, noSignals, type Signals } from './signals';
import type { SignalProvider } from './provider';

/**
 * Number structure only (libphonenumber-js metadata): toll-free, premium, VoIP and personal ranges
 * are known; whether a geographic number is mobile is not, and is reported as unknown. Free.
 */
export const offlineProvider: SignalProvider = {
  name: 'offline',
  simulated: false,
  async lookup(items) {
    return items.map((item): Signals => ({ ...noSignals(), lineType: lineTypeFromStructure(numberTypeOf(item.e164)) }));
  },
};
