export { type AddressClass, classifyAddress } from './address-class.ts';
export {
  createPolicyFetch,
  type PolicyFetch,
  type PolicyFetchOptions,
  type ResolveHost,
} from './policy-fetch.ts';
export {
  addressRefusal,
  checkUrl,
  type UrlCheck,
  type UrlPolicy,
  type UrlPolicyOptions,
  type UrlPurpose,
  urlPolicy,
} from './url-policy.ts';
