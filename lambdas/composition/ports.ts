import type { ClassificationPorts } from '../classification';
import type { SpamNumberPorts, SpamPorts } from '../spam/ports';
import type { UploadPorts, WorkflowPorts } from '../uploads/workflow';
import type { MemberInvitePorts } from '../console/member-inviter';
import type { OpenPorts, SealPorts } from '../webhooks/secret-sealer';

/**
 * Every port a use case of this service can be given, built by one composition root per runtime:
 * `lambdas/composition/aws.ts` for the Lambdas, `local/composition.ts` for `npm start`, the admin
 * CLI and tests. Each use case names only the ports it needs (`DeliveryPorts`, `UploadPorts`,
 * `SpamPorts`, `SealPorts`…); a root's `Ports` satisfies all of them.
 */
export interface Ports extends UploadPorts, SpamPorts, SealPorts, OpenPorts, ClassificationPorts {}

/**
 * The console API's ports: every feature an organization's members use, carrier tests excepted.
 * Confirming a web upload starts its workflow; recovering uploads (settling a pool upload's
 * contacts) is the recovery job's, never the console's.
 */
export interface ConsolePorts extends WorkflowPorts, SpamNumberPorts, SealPorts, OpenPorts, MemberInvitePorts {}
