/** The live phone leg a call controls through its vendor's REST API. */
export interface PhoneLegRef {
  provider: string;
  providerCallId: string;
  /** Parley's number on this call: the caller id a transfer target sees. */
  ourNumber: string;
  /** Where the vendor reports on a transferred leg. */
  statusUrl: string;
}
