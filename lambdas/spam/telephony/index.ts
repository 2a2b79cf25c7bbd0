import { AwsSmsVoiceTelephony } from './aws-sms-voice';
import { SimulatedTelephony } from './simulator';
import type { TelephonyPort } from './port';
import type { Config } from '../../platform/config';

/**
 * The telephony adapter the configuration names: TELEPHONY_PROVIDER=aws (default when deployed) or
 * simulator (default locally). Built once by each runtime's composition root.
 */
export function configuredTelephony(config: Config): TelephonyPort {
  const provider = config.TELEPHONY_PROVIDER ?? (config.DEPLOYMENT === 'aws' ? 'aws' : 'simulator');
  if (provider === 'aws') return new AwsSmsVoiceTelephony(config.SMS_VOICE_ORIGINATION_IDENTITY, undefined, config.SMS_VOICE_CONFIGURATION_SET);
  return new SimulatedTelephony();
}
