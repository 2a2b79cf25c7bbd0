import { withAwsCarrierTests } from './aws-carrier-tests';
import { awsClassificationPorts } from './aws-classification';
import { awsUploadPorts } from './aws-recovery';
import { awsConsolePorts } from './aws-spam';
import type { Ports } from './ports';

// Every port of the AWS root, for the admin CLI against a deployed stack (it runs both the contact
// pool and the spam tests). A module of its own: the test queue's consumer imports
// aws-carrier-tests.ts, and must not reach the recovery ports (and the pool code they load).

/** Every port: the admin CLI against a deployed stack runs both the pool and spam tests. */
export function awsPorts(): Ports {
  // Assigned onto a new object of its own, so the telephony getter is not called here.
  return withAwsCarrierTests(Object.assign(awsConsolePorts(), awsUploadPorts(), awsClassificationPorts()));
}
