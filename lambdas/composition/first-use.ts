/**
 * `ports` with the port `name` built at its first use: a getter (a spread would build it now), so a
 * setting its adapter lacks fails the call that needs it, answered as such, and never the
 * container's start. `build` keeps what it built (perConfig).
 */
export function withPortAtFirstUse<T extends object, K extends string, V>(ports: T, name: K, build: () => V): T & { readonly [P in K]: V } {
  return Object.defineProperty(ports, name, { get: build, enumerable: true }) as T & { readonly [P in K]: V };
}
