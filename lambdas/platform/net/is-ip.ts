/**
 * node:net's isIP: 4, 6, or 0 for anything else. Taken by getBuiltinModule, not by an ES import:
 * importing node:net builds a facade that reads every export, and its BlockList and SocketAddress
 * getters load two more modules at every cold start of a function that holds the URL rules
 * (docs/performance.md, "Cold imports, fifth step"). node:net itself is loaded by the SDK anyway.
 */
export const isIP = (input: string): number => process.getBuiltinModule('node:net').isIP(input);
