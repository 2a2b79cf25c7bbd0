import { describe, expect, it } from 'vitest';
import { reloadConfig } from '../../../lambdas/platform/config';
import { awsConsolePorts, awsSpamNumberPorts } from '../../../lambdas/composition/aws-spam';
import { awsPorts } from '../../../lambdas/composition/aws-all';
import { awsSpamTestPorts } from '../../../lambdas/composition/aws-carrier-tests';
import { AwsSmsVoiceTelephony } from '../../../lambdas/spam/telephony/aws-sms-voice';
import { SimulatedTelephony } from '../../../lambdas/spam/telephony/simulator';
import { DeviceLabCarrierTests } from '../../../lambdas/spam/carrier-test/device-lab';
import { SimulatedCarrierTests } from '../../../lambdas/spam/carrier-test/simulator';

// The AWS root's spam adapters are read through getters: a handler takes its ports when its
// container starts, and the adapter is built at the first send or test, from the configuration then.
// (test/support/restore-env.ts gives the environment back after this file.)
function configure(env: Record<string, string>): void {
  Object.assign(process.env, env);
  reloadConfig();
}

describe('the AWS composition root: spam adapters', () => {
  it('builds telephony and carrier tests at first use, not when the ports are taken', () => {
    configure({ TELEPHONY_PROVIDER: 'simulator', CARRIER_TEST_PROVIDER: 'simulator' });
    const consolePorts = awsConsolePorts();
    const numberPorts = awsSpamNumberPorts();
    const testPorts = awsSpamTestPorts();
    const all = awsPorts();

    configure({ TELEPHONY_PROVIDER: 'aws', SMS_VOICE_ORIGINATION_IDENTITY: 'arn:aws:sms-voice:us-east-1:111122223333:phone-number/x', CARRIER_TEST_PROVIDER: 'device-lab', DEVICE_LAB_URL: 'https://lab.example.test' });
    expect(consolePorts.telephony).toBeInstanceOf(AwsSmsVoiceTelephony);
    expect(numberPorts.telephony).toBe(consolePorts.telephony);
    expect(all.telephony).toBe(consolePorts.telephony);
    expect(testPorts.carrierTests).toBeInstanceOf(DeviceLabCarrierTests);
    expect(all.carrierTests).toBe(testPorts.carrierTests);

    configure({ TELEPHONY_PROVIDER: 'simulator', CARRIER_TEST_PROVIDER: 'simulator' });
    expect(all.telephony).toBeInstanceOf(SimulatedTelephony);
    expect(all.carrierTests).toBeInstanceOf(SimulatedCarrierTests);
  });

  it('gives the APIs no carrier tests, and the test consumer no telephony', () => {
    expect('carrierTests' in awsConsolePorts()).toBe(false);
    expect('carrierTests' in awsSpamNumberPorts()).toBe(false);
    expect('telephony' in awsSpamTestPorts()).toBe(false);
  });
});
