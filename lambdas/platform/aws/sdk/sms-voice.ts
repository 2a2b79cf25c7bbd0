// Sending a code by SMS or voice only, loaded on first use (lambdas/spam/telephony/aws-sms-voice.ts).
export { PinpointSMSVoiceV2Client, SendTextMessageCommand, SendVoiceMessageCommand } from '@aws-sdk/client-pinpoint-sms-voice-v2';
