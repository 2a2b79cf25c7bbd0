import type { CfnResource } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * The logical ids of the resources that hold data or operator-entered values. CloudFormation
 * replaces a resource whose logical id changes, and a construct's id comes from its path: moving or
 * renaming a construct (Data/Table) would silently make a new, empty table. So these are pinned,
 * to the ids they were first deployed with, and test/infra/stateful-logical-ids.test.ts compares
 * every retained resource and secret of the template against a checked-in list.
 */
export const STATEFUL_LOGICAL_IDS = {
  table: 'DataTableFDBAD0F2',
  secretsKey: 'DataSecretsKey873C68EF',
  filesBucket: 'DataFilesC1590605',
  screenshotsBucket: 'DataScreenshots4295020D',
  backupVault: 'DataBackupVault',
  userPool: 'ConsoleUsersE8A0E376',
  cursorKey: 'CursorKey255E8F8A',
  twilioCredentials: 'TwilioCredentials18AA37CC',
  // Never deployed under another id: pinned to a plain name from their first release.
  telnyxCredentials: 'TelnyxCredentials',
  trestleCredentials: 'TrestleCredentials',
  deviceLabToken: 'SpamDeviceLabToken539FEE6C',
  downloadsSigningKey: 'DownloadsSigningPrivateKey3A9E5550',
} as const;

/** Gives a construct's CloudFormation resource its pinned logical id; call it right after creating the construct, before anything names it. */
export function pinLogicalId(construct: IConstruct, name: keyof typeof STATEFUL_LOGICAL_IDS): void {
  (construct.node.defaultChild as CfnResource).overrideLogicalId(STATEFUL_LOGICAL_IDS[name]);
}
