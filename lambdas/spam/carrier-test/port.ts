import type { Carrier } from '../carriers';

export interface CarrierTestRequest {
  testRunId: string;
  numberId: string;
  /** The monitored (calling) number, E.164. */
  phoneNumber: string;
  /** The carrier of the handset that receives the test call. */
  carrier: Carrier;
  /** UTC day of the run, YYYY-MM-DD. */
  day: string;
}

export interface CarrierTestOutcome {
  status: 'completed' | 'failed';
  spam_detected: boolean | null;
  /** What the handset displayed, when it flagged the call. */
  spam_label: string | null;
  sip_response_code: string | null;
  /** STIR/SHAKEN verification as seen by the terminating carrier. */
  caller_id_verified: boolean | null;
  /** The calling number's own carrier, when the lab could tell. */
  originating_carrier: Carrier | null;
  screenshot: { bytes: Buffer; contentType: string } | null;
  captured_at: string | null;
  error: string | null;
  /** True for results that no real handset produced. */
  simulated: boolean;
}

/** Places a test call from a monitored number to a handset on one carrier and reports what it showed. */
export interface CarrierTestPort {
  readonly name: string;
  readonly simulated: boolean;
  runTest(request: CarrierTestRequest): Promise<CarrierTestOutcome>;
}
