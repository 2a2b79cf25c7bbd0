// jpeg-js's encoder alone: its package entry is CommonJS (`module.exports = { encode, decode }`),
// which a bundler cannot tree-shake, so importing `encode` from 'jpeg-js' also put the decoder
// (~13 KB minified, never run: the service only draws screenshots) in the carrier-test consumer's
// cold start. lib/encoder.js sets `module.exports = encode`, the same function.
declare module 'jpeg-js/lib/encoder.js' {
  import type { encode } from 'jpeg-js';
  const encodeJpeg: typeof encode;
  export default encodeJpeg;
}
