import { readSecretString } from '../../platform/aws/secrets';
import { DeviceLabCarrierTests } from './device-lab';
import { SimulatedCarrierTests } from './simulator';
import type { CarrierTestPort } from './port';
import type { Config } from '../../platform/config';

/**
 * The carrier-test adapter the configuration names: CARRIER_TEST_PROVIDER=device-lab
 * (DEVICE_LAB_URL, token from DEVICE_LAB_TOKEN_SECRET_ARN or DEVICE_LAB_TOKEN) or simulator (the
 * default; each test takes SIMULATOR_CARRIER_TEST_DELAY_MS). Built once by each runtime's composition root.
 */
export function configuredCarrierTests(config: Config): CarrierTestPort {
  if (config.CARRIER_TEST_PROVIDER === 'simulator') return new SimulatedCarrierTests(config.SIMULATOR_CARRIER_TEST_DELAY_MS);
  return new DeviceLabCarrierTests({
    baseUrl: config.DEVICE_LAB_URL,
    token: deviceLabToken(config),
    pollIntervalMs: config.DEVICE_LAB_POLL_INTERVAL_MS,
    maxPolls: config.DEVICE_LAB_MAX_POLLS,
  });
}

function deviceLabToken(config: Config): () => Promise<string> {
  let token: Promise<string> | null = null;
  return () => {
    const direct = config.DEVICE_LAB_TOKEN;
    if (direct) return Promise.resolve(direct);
    const arn = config.DEVICE_LAB_TOKEN_SECRET_ARN;
    if (!arn) return Promise.reject(new Error('neither DEVICE_LAB_TOKEN nor DEVICE_LAB_TOKEN_SECRET_ARN is set'));
    // Read once per container; a failed read is retried on the next call.
    token ??= readSecretString(arn)
      .then((secret) => {
        if (!secret) throw new Error('device lab token secret is empty');
        return secret;
      })
      .catch((error: unknown) => {
        token = null;
        throw error;
      });
    return token;
  };
}
