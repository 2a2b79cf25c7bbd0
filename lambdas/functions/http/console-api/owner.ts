import { requireOwner, type ConsolePrincipal } from '../../../console/principal';

/** Runs `then` for an owner of the organization; anyone else is refused (403). */
export const owner = <T>(p: ConsolePrincipal, then: () => Promise<T>): Promise<T> => {
  requireOwner(p);
  return then();
};
