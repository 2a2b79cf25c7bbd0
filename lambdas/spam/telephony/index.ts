import { AwsSmsVoiceTelephony } from './aws-sms-voice';
import { SimulatedTelephony } from './simulator';
import type { TelephonyPort } from './port';
import { config } from '../../platform/config';

let override: TelephonyPort | null = null;
let cached: TelephonyPort | null = null;

/**
 * The configured telephony adapter: TELEPHONY_PROVIDER=aws (default when deployed) or simulator
 * (default locally).
 */
export function telephony(): TelephonyPort {
  if (override) return override;
  if (!cached) {
    const provider = config().TELEPHONY_PROVIDER ?? (config().DEPLOYMENT === 'aws' ? 'aws' : 'simulator');
    if (provider === 'aws') cached = new AwsSmsVoiceTelephony(config().SMS_VOICE_ORIGINATION_IDENTITY, undefined, config().SMS_VOICE_CONFIGURATION_SET);
    else if (provider === 'simulator') cached = new SimulatedTelephony();
    else throw new Error(`TELEPHONY_PROVIDER '${provider}' is not one of aws, simulator`);
  }
  return cached;
}

/** Test hook: replace the adapter (e.g. one that always fails); null restores the configured one. */
export function setTelephony(port: TelephonyPort | null): void {
  override = port;
}
