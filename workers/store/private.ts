import { contract } from '#shared/contract/index';

/** Calls whose answers belong to the signed-in user (the contract's `auth` flag). */
export function isPrivateEndpoint(name: string): boolean {
  const ep = (contract as Record<string, { auth: boolean } | undefined>)[name];
  // An endpoint this version does not know is treated as private: never served to another user.
  return ep ? ep.auth : true;
}
