// Parsing is the classification engine's (one normalizer for the whole service); imported from its
// on-demand module rather than the index so the spam bundle does not pull in the classifiers, nor
// libphonenumber-js before a number needs it.
export { normalizeUsCaOnDemand } from '../classification/normalize-on-demand';

// North American numbering does not tell mobiles from landlines, so most numbers are
// FIXED_LINE_OR_MOBILE; those may be texted. Types that cannot receive a text (landlines, toll-free
// and premium ranges, pagers, voicemail-only access numbers) or whose type is unknown are call-only.
const SMS_CAPABLE_TYPES = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE', 'VOIP', 'PERSONAL_NUMBER']);

export const isSmsCapable = (type: string): boolean => SMS_CAPABLE_TYPES.has(type);
