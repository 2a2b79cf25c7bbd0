import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { DeviceLabCarrierTests } from './device-lab';
import { SimulatedCarrierTests } from './simulator';
import type { CarrierTestPort } from './port';
import { config } from '../../platform/config';

let override: CarrierTestPort | null = null;
let cached: CarrierTestPort | null = null;
let token: Promise<string> | null = null;

/**
 * The configured carrier-test adapter: CARRIER_TEST_PROVIDER=device-lab (DEVICE_LAB_URL, token
 * from DEVICE_LAB_TOKEN_SECRET_ARN or DEVICE_LAB_TOKEN) or simulator (the default; each test takes
 * SIMULATOR_CARRIER_TEST_DELAY_MS).
 */
export function carrierTests(): CarrierTestPort {
  if (override) return override;
  if (!cached) {
    const provider = config().CARRIER_TEST_PROVIDER;
    if (provider === 'simulator') cached = new SimulatedCarrierTests(config().SIMULATOR_CARRIER_TEST_DELAY_MS);
    else if (provider === 'device-lab') {
      cached = new DeviceLabCarrierTests({
        baseUrl: config().DEVICE_LAB_URL,
        token: deviceLabToken,
        pollIntervalMs: config().DEVICE_LAB_POLL_INTERVAL_MS,
        maxPolls: config().DEVICE_LAB_MAX_POLLS,
      });
    } else throw new Error(`CARRIER_TEST_PROVIDER '${provider}' is not one of device-lab, simulator`);
  }
  return cached;
}

function deviceLabToken(): Promise<string> {
  const direct = config().DEVICE_LAB_TOKEN;
  if (direct) return Promise.resolve(direct);
  const arn = config().DEVICE_LAB_TOKEN_SECRET_ARN;
  if (!arn) return Promise.reject(new Error('neither DEVICE_LAB_TOKEN nor DEVICE_LAB_TOKEN_SECRET_ARN is set'));
  // Read once per container; a failed read is retried on the next call.
  token ??= new SecretsManagerClient({})
    .send(new GetSecretValueCommand({ SecretId: arn }))
    .then((out) => {
      if (!out.SecretString) throw new Error('device lab token secret is empty');
      return out.SecretString;
    })
    .catch((error: unknown) => {
      token = null;
      throw error;
    });
  return token;
}

/** Test hook: replace the adapter; null restores the configured one. */
export function setCarrierTests(port: CarrierTestPort | null): void {
  override = port;
}
