import * as admin from '../lambdas/admin/admin';
import { runBillingPeriodJob } from '../lambdas/credits/billing-period-job';
import { MAX_CREDITS } from '../lambdas/credits/credits';
import { dataDirFromEnv } from '../local/environment';
import { awsPorts } from '../lambdas/composition/aws-all';
import { config } from '../lambdas/platform/config';
import { createConsoleUser } from '../lambdas/console/cognito-users';
import { instanceDeliveryQueue } from '../local/instance-control';
import type { InstanceRecord } from '../local/instance-lock';

export class AdminUsageError extends Error {}

type Values = Record<string, string | boolean | undefined>;
/** Where a command runs: beside a serving local instance (its record), or not. */
export interface CommandContext {
  instance: InstanceRecord | null;
  /** The deployed stack's console user pool (--stack). */
  consoleUserPoolId?: string;
}
interface Command {
  usage: string;
  options: Record<string, { type: 'string' | 'boolean' }>;
  run(values: Values, context?: CommandContext): Promise<unknown>;
}

/**
 * The local root of a command that runs a job: beside a serving instance, the deliveries its events
 * raise are handed to the instance (which attempts and retries them with its settings), not
 * attempted by this process, which exits once its answer is printed.
 */
async function localJobRoot(context: CommandContext | undefined) {
  const { createLocalRoot } = await import('../local/composition');
  const control = context?.instance?.control;
  return createLocalRoot(control ? { deliveryQueue: instanceDeliveryQueue(control) } : {}, { dataDir: dataDirFromEnv() });
}

const str = { type: 'string' } as const;

function required(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || !value.trim()) throw new AdminUsageError(`--${name} is required`);
  return value.trim();
}

function wholeNumber(values: Values, name: string, min = 0): number {
  const raw = required(values, name);
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > MAX_CREDITS) {
    throw new AdminUsageError(`--${name} must be a whole number from ${min} to ${MAX_CREDITS}, got '${raw}'`);
  }
  return Number(raw);
}

function bool(values: Values, name: string): boolean {
  const raw = required(values, name).toLowerCase();
  if (['true', 'active', 'on', 'yes'].includes(raw)) return true;
  if (['false', 'inactive', 'off', 'no'].includes(raw)) return false;
  throw new AdminUsageError(`--${name} must be active or inactive (true/false), got '${raw}'`);
}

/** Every admin CLI command. Features add theirs here. */
export const ADMIN_COMMANDS: Record<string, Command> = {
  'create-org': {
    usage: '--name NAME [--subscription active|inactive] [--credits N] [--monthly N]',
    options: { name: str, subscription: str, credits: str, monthly: str },
    run: (v) =>
      admin.createOrganization({
        name: required(v, 'name'),
        subscriptionActive: v.subscription === undefined ? false : bool(v, 'subscription'),
        credits: v.credits === undefined ? undefined : wholeNumber(v, 'credits'),
        monthlyAllocation: v.monthly === undefined ? undefined : wholeNumber(v, 'monthly'),
      }),
  },
  'console-passwords': {
    usage: "(no options) the local web console's demo sign-ins and passwords (DATA_DIR/console-oidc.json; npm start prints them only when it creates them)",
    options: {},
    run: async (v) => {
      if (v.table !== undefined || v.stack !== undefined) throw new AdminUsageError('console-passwords reads the local data folder (DATA_DIR); in AWS, Cognito holds the console users (console-user)');
      const { savedConsoleSignIns } = await import('../local/console-seed');
      return savedConsoleSignIns(dataDirFromEnv());
    },
  },
  'create-user': { usage: '--email EMAIL', options: { email: str }, run: (v) => admin.createUser(required(v, 'email')) },
  'console-user': {
    usage: '--user USER_ID [--user-pool POOL_ID]   (AWS: the console sign-in for a user; --stack names the pool)',
    options: { user: str, 'user-pool': str },
    run: async (v, context) => {
      const pool = (v['user-pool'] as string | undefined) ?? context?.consoleUserPoolId ?? (process.env.CONSOLE_USER_POOL_ID || undefined);
      if (!pool) throw new AdminUsageError('--user-pool POOL_ID or --stack NAME (its ConsoleUserPoolId output) is required; locally, console-passwords shows the console sign-ins');
      const { CognitoIdentityProviderClient } = await import('@aws-sdk/client-cognito-identity-provider');
      return createConsoleUser(new CognitoIdentityProviderClient({}), pool, required(v, 'user'));
    },
  },
  'add-member': {
    usage: '--org ORG_ID --user USER_ID [--role owner|member]',
    options: { org: str, user: str, role: str },
    run: async (v) => {
      const role = (v.role ?? 'member') as string;
      if (role !== 'owner' && role !== 'member') throw new AdminUsageError(`--role must be owner or member, got '${role}'`);
      await admin.addMember(required(v, 'org'), required(v, 'user'), role);
      return { ok: true };
    },
  },
  'remove-member': {
    usage: '--org ORG_ID --user USER_ID   (revokes every key the user minted for the organization)',
    options: { org: str, user: str },
    run: (v) => admin.removeMember(required(v, 'org'), required(v, 'user')),
  },
  'delete-user': { usage: '--user USER_ID', options: { user: str }, run: async (v) => (await admin.deleteUser(required(v, 'user')), { ok: true }) },
  'delete-org': { usage: '--org ORG_ID', options: { org: str }, run: async (v) => (await admin.deleteOrganization(required(v, 'org')), { ok: true }) },
  'mint-key': {
    usage: '--org ORG_ID --user OWNER_USER_ID [--expires-at ISO_DATE|UNIX_SECONDS] [--name NAME]   (prints the key once)',
    options: { org: str, user: str, 'expires-at': str, name: str },
    run: (v) => admin.mintKey(required(v, 'org'), required(v, 'user'), v['expires-at'] as string | undefined, v.name as string | undefined),
  },
  'revoke-key': { usage: '--key-id KEY_ID', options: { 'key-id': str }, run: async (v) => (await admin.revokeKey(required(v, 'key-id')), { ok: true }) },
  'list-keys': { usage: '--org ORG_ID', options: { org: str }, run: (v) => admin.listKeys(required(v, 'org')) },
  'set-subscription': {
    usage: '--org ORG_ID --status active|inactive',
    options: { org: str, status: str },
    run: (v) => admin.setSubscription(required(v, 'org'), bool(v, 'status')),
  },
  'set-allocation': {
    usage: '--org ORG_ID --monthly N [--cap N|none]',
    options: { org: str, monthly: str, cap: str },
    run: async (v) => {
      const cap = v.cap === undefined || v.cap === 'none' ? null : wholeNumber(v, 'cap');
      await admin.setAllocation(required(v, 'org'), wholeNumber(v, 'monthly'), cap);
      return admin.showBalance(required(v, 'org'));
    },
  },
  'add-credits': { usage: '--org ORG_ID --amount N', options: { org: str, amount: str }, run: (v) => admin.addCredits(required(v, 'org'), wholeNumber(v, 'amount', 1)) },
  balance: { usage: '--org ORG_ID', options: { org: str }, run: (v) => admin.showBalance(required(v, 'org')) },
  usage: {
    usage: '--org ORG_ID --since ISO_DATE   (lookups of the organization\'s uploads since then: paid, from the cache, failed)',
    options: { org: str, since: str },
    run: (v) => admin.lookupUsage(required(v, 'org'), required(v, 'since')),
  },
  'run-billing-period': { usage: '(no options) start the next billing period of every organization whose period has ended', options: {}, run: () => runBillingPeriodJob() },
  'set-spam-limit': {
    usage: '--org ORG_ID --included N|none --addons N   (plan numbers + purchased add-ons; none = no cap)',
    options: { org: str, included: str, addons: str },
    run: (v) => admin.setSpamLimit(required(v, 'org'), v.included === 'none' ? null : wholeNumber(v, 'included'), v.addons === undefined ? 0 : wholeNumber(v, 'addons')),
  },
  'spam-codes': { usage: '--phone NUMBER   (verification codes the local simulator sent to it, newest first)', options: { phone: str }, run: (v) => admin.spamVerificationCodes(required(v, 'phone')) },
  'run-contact-pool': {
    usage: '(no options) pool queued contacts now, as the schedule does; locally their uploads are processed before it returns',
    options: {},
    run: async (_v, context) => {
      // Deployed (--stack): the stack's state machine runs the pool uploads. Locally this process
      // runs them, as `npm start` would, and waits for them.
      if (config().UPLOAD_STATE_MACHINE_ARN) return admin.runContactPoolNow(awsPorts());
      // Loaded only here: the pipeline is heavy, and no other command needs it.
      const root = await localJobRoot(context);
      try {
        const summary = await admin.runContactPoolNow(root.ports);
        await root.settleWorkflows();
        return summary;
      } finally {
        await root.stop();
      }
    },
  },
  doctor: {
    usage: '--stack NAME   what the deployed stack still needs (secrets to fill in before it takes paid work)',
    options: {},
    run: async (v) => {
      const stack = v.stack;
      if (typeof stack !== 'string' || !stack) throw new AdminUsageError('--stack NAME is required: doctor checks a deployed stack');
      const { doctor } = await import('./doctor');
      return doctor(stack);
    },
  },
  'spam-run': {
    usage: "[--org ORG_ID]   run today's spam tests now (with `npm start` running, its instance delivers the events; without it, this command does)",
    options: { org: str },
    run: async (v, context) => {
      const org = v.org === undefined ? undefined : required(v, 'org');
      if (config().DEPLOYMENT === 'aws') return admin.runSpamTestsNow(awsPorts(), org);
      const root = await localJobRoot(context);
      try {
        return await admin.runSpamTestsNow(root.ports, org);
      } finally {
        await root.stop();
      }
    },
  },
};
