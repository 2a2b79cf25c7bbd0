// The Twilio Lookup stand-in in a process of its own (the bench: a provider's clock and event loop
// are not the caller's). Prints {"url": …} once listening; controlled over /__fake/… .
import { startFakeTwilio } from './fake-twilio-lookup';

const fake = await startFakeTwilio();
console.log(JSON.stringify({ url: fake.url }));
