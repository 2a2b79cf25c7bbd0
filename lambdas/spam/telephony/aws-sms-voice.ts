import type { PinpointSMSVoiceV2Client } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { lazyModule } from '../../platform/aws/lazy-module';
import { messageText, TelephonyError, voiceSsml, type TelephonyPort } from './port';

/**
 * AWS End User Messaging SMS and Voice (v2): SendTextMessage for sms, SendVoiceMessage (SSML) for
 * call. The origination identity (a phone number, pool or sender id ARN) is deployment config.
 */
/** The messaging SDK, loaded at the first code sent (lib/bundle-options.ts: a chunk of its own). */
const smsVoiceSdk = /* @__PURE__ */ lazyModule(() => import('../../platform/aws/sdk/sms-voice'));

export class AwsSmsVoiceTelephony implements TelephonyPort {
  readonly name = 'aws-sms-voice';

  constructor(
    private readonly originationIdentity: string,
    private client?: PinpointSMSVoiceV2Client,
    private readonly configurationSetName?: string,
  ) {
    if (!originationIdentity) throw new Error('SMS_VOICE_ORIGINATION_IDENTITY is not set');
  }

  async sendCode(input: { numberId: string; to: string; code: string; method: 'call' | 'sms' }): Promise<{ messageId: string }> {
    const common = {
      DestinationPhoneNumber: input.to,
      OriginationIdentity: this.originationIdentity,
      ConfigurationSetName: this.configurationSetName,
      // The code is useless after 10 minutes; do not let the provider deliver it later than that.
      TimeToLive: 600,
      Context: { number_id: input.numberId },
    };
    try {
      const { PinpointSMSVoiceV2Client, SendTextMessageCommand, SendVoiceMessageCommand } = await smsVoiceSdk();
      const client = (this.client ??= new PinpointSMSVoiceV2Client({}));
      const out =
        input.method === 'sms'
          ? await client.send(new SendTextMessageCommand({ ...common, MessageBody: messageText(input.code), MessageType: 'TRANSACTIONAL' }))
          : await client.send(new SendVoiceMessageCommand({ ...common, MessageBody: voiceSsml(input.code), MessageBodyTextType: 'SSML', VoiceId: 'JOANNA' }));
      if (!out.MessageId) throw new TelephonyError('the messaging service returned no message id');
      return { messageId: out.MessageId };
    } catch (error) {
      if (error instanceof TelephonyError) throw error;
      // The provider's own message (throttling, opted out, invalid identity) is kept for the logs
      // and for `verification.error`; it names no secret.
      throw new TelephonyError(`${(error as Error).name}: ${(error as Error).message}`);
    }
  }
}
