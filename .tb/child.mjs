// test/reliability/child-runtime.ts
import { existsSync, readFileSync as readFileSync7, writeFileSync as writeFileSync5 } from "node:fs";
import { join as join7 } from "node:path";

// local/runtime.ts
import { join as join6 } from "node:path";

// lambdas/platform/routes.ts
import * as z from "zod";
var platformRoutes = {
  openapi: {
    method: "GET",
    path: "/openapi.json",
    fn: "platform",
    operationId: "getOpenApi",
    summary: "The OpenAPI 3.1 document of this API (no authentication)",
    tags: ["meta"],
    auth: false,
    responses: { 200: { description: "OpenAPI document", schema: z.record(z.string(), z.unknown()) } }
  }
};

// lambdas/credits/routes.ts
import * as z3 from "zod";

// lambdas/platform/http/common-schemas.ts
import * as z2 from "zod";
var ErrorEnvelope = z2.object({ detail: z2.union([z2.string(), z2.record(z2.string(), z2.unknown())]) }).meta({ id: "Error", description: "Every error: a `detail` string, or an object nested under `detail`." });
var RateLimitError = z2.object({
  detail: z2.object({
    error: z2.literal("rate_limit_exceeded"),
    scope: z2.enum(["per_key", "per_org"]),
    limit: z2.number().int(),
    retry_after_seconds: z2.number().int()
  })
}).meta({ id: "RateLimitError" });
var authErrors = {
  401: { description: "Authentication failed (see Authentication); carries WWW-Authenticate: Bearer", schema: ErrorEnvelope }
};
var rateLimitErrors = {
  429: { description: "Rate limit exceeded; carries Retry-After and X-RateLimit-* headers", schema: RateLimitError }
};
function byIdParams(name, notFoundDetail, description) {
  const id = z2.string().uuid({ message: notFoundDetail }).describe(description);
  return z2.object({ [name]: id });
}

// lambdas/credits/routes.ts
var CreditBalance = z3.object({
  total: z3.number().int().describe("subscription + purchased; the figure that gates credit-consuming endpoints"),
  subscription: z3.number().int().describe("monthly allocation; replenished each billing period and capped"),
  purchased: z3.number().int().describe("one-time top-ups; uncapped")
}).meta({ id: "CreditBalance" });
var creditsRoutes = {
  getBalance: {
    method: "GET",
    path: "/api/v1/credits/balance",
    fn: "credits",
    operationId: "getCreditBalance",
    summary: "Credit balance of the key\u2019s organization",
    tags: ["credits"],
    responses: { 200: { description: "Balance", schema: CreditBalance }, ...authErrors }
  }
};

// lambdas/webhooks/routes.ts
import * as z4 from "zod";

// lambdas/platform/ids.ts
import { createHash, randomBytes, randomUUID } from "node:crypto";
var newId = () => randomUUID();
var randomHex = (bytes) => randomBytes(bytes).toString("hex");
var sha256Hex = (value) => createHash("sha256").update(value).digest("hex");
var UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
var isUuid = (value) => UUID_RE.test(value);

// lambdas/events/envelope.ts
var API_VERSION = "2026-04-23";
var EVENT_TYPES = [
  "upload.created",
  "upload.completed",
  "upload.failed",
  "contact.completed",
  "contact.failed",
  "spam.detected",
  "number.verified",
  "webhook.ping"
];
var SUBSCRIBABLE_EVENT_TYPES = EVENT_TYPES.filter((t) => t !== "webhook.ping");
var DEFAULT_EVENT_TYPES = ["upload.completed", "upload.failed"];
var newEventId = () => `evt_${randomHex(16)}`;

// lambdas/webhooks/routes.ts
var EventList = z4.array(z4.string()).max(50).describe(`Event types; any of ${SUBSCRIBABLE_EVENT_TYPES.join(", ")}`);
var WebhookEndpointSchema = z4.object({
  id: z4.string().uuid(),
  url: z4.string(),
  description: z4.string().nullable(),
  events: z4.array(z4.string()),
  is_active: z4.boolean(),
  verified_at: z4.string().nullable(),
  last_success_at: z4.string().nullable(),
  last_failure_at: z4.string().nullable(),
  consecutive_failures: z4.number().int(),
  disabled_at: z4.string().nullable(),
  created_at: z4.string(),
  updated_at: z4.string()
}).meta({ id: "WebhookEndpoint" });
var PingFailed = z4.object({
  detail: z4.object({
    error: z4.literal("ping_failed"),
    message: z4.string(),
    status_code: z4.number().int().nullable(),
    underlying_error: z4.string().nullable()
  })
}).meta({ id: "PingFailedError" });
var WebhookDeliverySchema = z4.object({
  id: z4.string().describe("Delivery id; the X-Service-Delivery-Id header of every attempt"),
  webhook_id: z4.string(),
  event_id: z4.string(),
  event_type: z4.string(),
  state: z4.enum(["pending", "succeeded", "exhausted"]),
  attempt_count: z4.number().int(),
  attempts: z4.array(
    z4.object({
      attempt: z4.number().int(),
      attempted_at: z4.string(),
      status_code: z4.number().int().nullable().describe("null when no response arrived"),
      error: z4.string().nullable().describe("network, timeout or URL-safety error")
    })
  ),
  next_attempt_at: z4.string().nullable(),
  exhausted_reason: z4.string().nullable().describe("set when the delivery ended without a further attempt (endpoint deleted or inactive)"),
  created_at: z4.string(),
  updated_at: z4.string()
}).meta({ id: "WebhookDelivery" });
var Params = byIdParams("webhook_id", "Webhook endpoint not found", "id of a webhook endpoint of the key\u2019s organization");
var common = { fn: "webhooks", tags: ["webhooks"], scope: "webhooks:manage" };
var invalid = { 400: { description: "Invalid input, URL refused or ping failed", schema: z4.union([ErrorEnvelope, PingFailed]) } };
var missing = { 404: { description: "No such endpoint in the key\u2019s organization", schema: ErrorEnvelope } };
var webhooksRoutes = {
  create: {
    ...common,
    method: "POST",
    path: "/api/v1/webhooks",
    operationId: "createWebhookEndpoint",
    summary: "Register an endpoint (sends a synchronous webhook.ping; saved only on 2xx)",
    rateLimited: true,
    request: {
      body: z4.object({
        url: z4.string().min(1).max(2048),
        description: z4.string().max(500).nullable().optional(),
        events: EventList.optional()
      }).strict()
    },
    responses: {
      201: { description: "Created; `secret` is shown only here", schema: z4.object({ webhook: WebhookEndpointSchema, secret: z4.string().regex(/^[0-9a-f]{64}$/) }) },
      ...invalid,
      ...authErrors,
      ...rateLimitErrors
    }
  },
  list: {
    ...common,
    method: "GET",
    path: "/api/v1/webhooks",
    operationId: "listWebhookEndpoints",
    summary: "Endpoints of the key\u2019s organization, newest first",
    responses: { 200: { description: "Array of endpoints", schema: z4.array(WebhookEndpointSchema) }, ...authErrors }
  },
  get: {
    ...common,
    method: "GET",
    path: "/api/v1/webhooks/{webhook_id}",
    operationId: "getWebhookEndpoint",
    summary: "One endpoint",
    request: { params: Params },
    responses: { 200: { description: "The endpoint", schema: WebhookEndpointSchema }, ...authErrors, ...missing }
  },
  update: {
    ...common,
    method: "PATCH",
    path: "/api/v1/webhooks/{webhook_id}",
    operationId: "updateWebhookEndpoint",
    summary: "Partial update; a changed url is ping-verified; is_active true re-enables and resets the failure count",
    rateLimited: true,
    request: {
      params: Params,
      body: z4.object({
        url: z4.string().min(1).max(2048).optional(),
        description: z4.string().max(500).nullable().optional(),
        events: EventList.optional(),
        is_active: z4.boolean().optional()
      }).strict()
    },
    responses: { 200: { description: "The updated endpoint", schema: WebhookEndpointSchema }, ...invalid, ...authErrors, ...missing, ...rateLimitErrors }
  },
  delete: {
    ...common,
    method: "DELETE",
    path: "/api/v1/webhooks/{webhook_id}",
    operationId: "deleteWebhookEndpoint",
    summary: "Hard delete; in-flight deliveries become exhausted",
    rateLimited: true,
    request: { params: Params },
    responses: { 204: { description: "Deleted (no body)" }, ...authErrors, ...missing, ...rateLimitErrors }
  },
  deliveries: {
    ...common,
    method: "GET",
    path: "/api/v1/webhooks/{webhook_id}/deliveries",
    operationId: "listWebhookDeliveries",
    summary: "Recent deliveries of one endpoint with every attempt, newest first",
    request: {
      params: Params,
      query: z4.object({
        limit: z4.coerce.number().int().min(1).max(100).default(50),
        cursor: z4.string().max(2048).optional()
      })
    },
    responses: {
      200: { description: "One page", schema: z4.object({ data: z4.array(WebhookDeliverySchema), next_cursor: z4.string().nullable() }) },
      400: { description: "Invalid limit or cursor", schema: ErrorEnvelope },
      ...authErrors,
      ...missing
    }
  }
};

// lambdas/spam/routes.ts
import * as z6 from "zod";

// lambdas/spam/test-run-fields.ts
import * as z5 from "zod";

// lambdas/spam/carriers.ts
var CARRIERS = ["at&t", "t-mobile", "verizon"];
var isCarrier = (value) => typeof value === "string" && CARRIERS.includes(value);
var HISTORY_WINDOW_MS = 7 * 24 * 60 * 60 * 1e3;
var dayOf = (ms) => new Date(ms).toISOString().slice(0, 10);

// lambdas/spam/test-run-fields.ts
var carrierSchema = z5.enum(CARRIERS);
var testStatusSchema = z5.enum(["pending", "running", "completed", "failed"]);
var verdictFields = {
  spam_detected: z5.boolean().nullable(),
  spam_label: z5.string().nullable(),
  sip_response_code: z5.string().nullable(),
  caller_id_verified: z5.boolean().nullable(),
  same_carrier_warning: z5.boolean()
};

// lambdas/spam/routes.ts
var CarrierEnum = carrierSchema;
var TestStatus = testStatusSchema;
var Method = z6.enum(["call", "sms"]);
var CarrierStatus = z6.object({
  carrier: CarrierEnum,
  status: TestStatus.describe("state of the latest test for this carrier"),
  spam_detected: z6.boolean().nullable().describe("null until the latest run completes"),
  spam_label: z6.string().nullable().describe("label the carrier displays, when flagged"),
  test_run_id: z6.string().nullable(),
  captured_at: z6.string().nullable(),
  screenshot_available: z6.boolean(),
  same_carrier_warning: z6.boolean().describe("additive: this test ran from the number\u2019s own carrier"),
  simulated: z6.boolean().describe("additive: true when the result came from the simulator, not a real handset")
}).meta({ id: "CarrierStatus" });
var MonitoredNumber = z6.object({
  id: z6.string(),
  phone_number: z6.string().describe("E.164, US/CA only"),
  verified: z6.boolean(),
  carrier: z6.string().nullable().describe("the number\u2019s own carrier when known"),
  same_carrier_warning: z6.boolean(),
  status: z6.enum(["active", "paused"]).describe("active: within the organization\u2019s limit and tested daily once verified; paused: beyond the limit, kept but not tested"),
  created_at: z6.string(),
  updated_at: z6.string().nullable(),
  carrier_statuses: z6.array(CarrierStatus)
}).meta({ id: "MonitoredNumber" });
var TestRunHistoryItem = z6.object({
  test_run_id: z6.string(),
  carrier: CarrierEnum,
  status: TestStatus,
  screenshot_available: z6.boolean(),
  tested_at: z6.string(),
  ...verdictFields,
  simulated: z6.boolean()
}).meta({ id: "TestRunHistoryItem" });
var NumberIdParams = byIdParams("number_id", "Monitored number not found", "id of a monitored number of the key\u2019s organization");
var e = (description) => ({ description, schema: ErrorEnvelope });
var common2 = { fn: "spam", tags: ["spam"], subscription: true };
var noSubscription = e("No active subscription");
var spamRoutes = {
  add: {
    ...common2,
    method: "POST",
    path: "/api/v1/spam/numbers",
    operationId: "addSpamNumber",
    summary: "Register an outbound number for spam monitoring; starts verification",
    rateLimited: true,
    request: {
      body: z6.object({
        phone_number: z6.string().min(1).max(64),
        verification_method: Method.default("call")
      })
    },
    responses: {
      201: {
        description: "Number registered; verification started",
        schema: z6.object({
          number: MonitoredNumber,
          verification: z6.object({ required: z6.boolean(), sent: z6.boolean(), method: Method, instructions: z6.string(), error: z6.string().nullable() })
        })
      },
      400: e("Unparseable or non-US/CA number, or sms for a number that cannot receive texts"),
      ...authErrors,
      403: e("No active subscription, or the spam monitoring number limit is reached"),
      409: e("The number is already monitored in this organization"),
      ...rateLimitErrors
    }
  },
  verify: {
    ...common2,
    method: "POST",
    path: "/api/v1/spam/numbers/{number_id}/verify",
    operationId: "verifySpamNumber",
    summary: "Verify a number with the code it received",
    rateLimited: true,
    request: { params: NumberIdParams, body: z6.object({ code: z6.string().min(1).max(32) }) },
    responses: {
      200: { description: "Verified", schema: z6.object({ success: z6.boolean(), verified: z6.boolean(), phone_number: z6.string(), message: z6.string() }) },
      400: e("Wrong, expired or used-up code, or the number is already verified"),
      ...authErrors,
      403: noSubscription,
      404: e("Unknown number"),
      ...rateLimitErrors
    }
  },
  resend: {
    ...common2,
    method: "POST",
    path: "/api/v1/spam/numbers/{number_id}/verify/resend",
    operationId: "resendSpamVerification",
    summary: "Send a new verification code",
    rateLimited: true,
    request: { params: NumberIdParams, body: z6.object({ method: Method.default("call") }) },
    responses: {
      200: { description: "Code sent", schema: z6.object({ success: z6.boolean(), phone_number: z6.string(), method: Method, message: z6.string() }) },
      400: e("Already verified, or sms for a number that cannot receive texts"),
      ...authErrors,
      403: noSubscription,
      404: e("Unknown number"),
      429: e("A code was sent in the last 30 seconds, or 10 in the last 24 hours (string detail); carries Retry-After and X-RateLimit-* of that throttle"),
      502: e("The code could not be sent")
    }
  },
  list: {
    ...common2,
    method: "GET",
    path: "/api/v1/spam/numbers",
    operationId: "listSpamNumbers",
    summary: "Monitored numbers, oldest first, with their latest per-carrier status",
    request: {
      query: z6.object({
        limit: z6.coerce.number().int().min(1).max(500).default(100),
        offset: z6.coerce.number().int().min(0).default(0)
      })
    },
    responses: {
      200: { description: "Page of numbers", schema: z6.object({ numbers: z6.array(MonitoredNumber), spam_monitoring_limit: z6.number().int().nullable(), total: z6.number().int() }) },
      400: e("limit or offset out of range"),
      ...authErrors,
      403: noSubscription
    }
  },
  get: {
    ...common2,
    method: "GET",
    path: "/api/v1/spam/numbers/{number_id}",
    operationId: "getSpamNumber",
    summary: "One monitored number with its latest per-carrier status",
    request: { params: NumberIdParams },
    responses: { 200: { description: "The number", schema: MonitoredNumber }, ...authErrors, 403: noSubscription, 404: e("Unknown number") }
  },
  history: {
    ...common2,
    method: "GET",
    path: "/api/v1/spam/numbers/{number_id}/history",
    operationId: "getSpamNumberHistory",
    summary: "Test runs of the last 7 days, newest first",
    request: { params: NumberIdParams },
    responses: {
      200: {
        description: "History",
        schema: z6.object({ number_id: z6.string(), phone_number: z6.string(), results: z6.array(TestRunHistoryItem), total: z6.number().int() })
      },
      ...authErrors,
      403: noSubscription,
      404: e("Unknown number")
    }
  },
  screenshot: {
    ...common2,
    method: "GET",
    path: "/api/v1/spam/numbers/{number_id}/screenshot",
    operationId: "getSpamNumberScreenshot",
    summary: "Screenshot of the latest test on a carrier (or the most recent across carriers), raw image bytes",
    request: { params: NumberIdParams, query: z6.object({ carrier: CarrierEnum.optional() }) },
    responses: {
      200: { description: "Image bytes; check Content-Type", contentType: "image/jpeg" },
      400: e("Unknown carrier"),
      ...authErrors,
      403: noSubscription,
      404: e("Unknown number, or no screenshot in the last 7 days")
    }
  },
  delete: {
    ...common2,
    method: "DELETE",
    path: "/api/v1/spam/numbers/{number_id}",
    operationId: "deleteSpamNumber",
    summary: "Stop monitoring: the number, its history and screenshots are removed from the service",
    rateLimited: true,
    request: { params: NumberIdParams },
    responses: {
      200: { description: "Removed", schema: z6.object({ success: z6.boolean(), number_id: z6.string(), phone_number: z6.string(), message: z6.string() }) },
      ...authErrors,
      403: noSubscription,
      404: e("Unknown number"),
      ...rateLimitErrors
    }
  }
};

// lambdas/contacts/routes.ts
import * as z7 from "zod";
var CONTACT_STATUSES = ["queued", "processing", "completed", "failed", "discarded"];
var MAX_PROPERTIES_BYTES = 16 * 1024;
var CreateContactBody = z7.object({
  phone: z7.string({ error: "phone is required and must be a string" }).min(1, "phone must not be empty").max(64),
  validation_tier: z7.string().optional().describe("standard (default) or max, case-insensitive"),
  properties: z7.record(z7.string(), z7.unknown()).optional().describe("free-form, echoed back unchanged; at most 16 KiB as JSON"),
  callback_url: z7.string().max(2048).optional().describe("HTTPS URL that receives a signed POST when the result is ready"),
  callback_secret: z7.string().min(16).max(256).optional().describe("HMAC-SHA256 key for the callback signature; required with callback_url"),
  idempotency_key: z7.string().min(1).max(255).optional().describe("scoped per organization and API key")
}).meta({ id: "CreateContactRequest" });
var contactBase = {
  id: z7.string().uuid(),
  organization_id: z7.string().uuid(),
  phone: z7.string().describe("E.164"),
  properties: z7.record(z7.string(), z7.unknown()),
  status: z7.enum(CONTACT_STATUSES),
  service_status: z7.string().nullable(),
  error_message: z7.string().nullable(),
  message: z7.string().nullable(),
  validation_tier: z7.enum(["standard", "max"]),
  credits_charged: z7.number().int(),
  created_at: z7.string(),
  updated_at: z7.string()
};
var ContactV1 = z7.object(contactBase).meta({ id: "ContactV1", description: "service_status holds the Answer Intent value" });
var ContactV2 = z7.object({ ...contactBase, service_answer_intent: z7.string().nullable(), service_identity: z7.string().nullable() }).meta({ id: "ContactV2", description: "service_status holds the nine-tier value (Answer Intent when processed without identity)" });
var ListQuery = z7.object({
  status: z7.enum(CONTACT_STATUSES).optional(),
  limit: z7.coerce.number().int().min(1).max(100).default(50),
  cursor: z7.string().max(2048).optional()
});
var IdParams = byIdParams("contact_id", "Contact not found", "id of a contact of the key\u2019s organization");
var createErrors = {
  400: { description: "Malformed input: unparseable or non-US/CA phone, invalid validation_tier, unsafe callback_url", schema: ErrorEnvelope },
  402: { description: "Insufficient credits", schema: ErrorEnvelope },
  409: { description: "idempotency_key reused with a different request, or the first request with it is still in progress", schema: ErrorEnvelope },
  ...authErrors,
  ...rateLimitErrors
};
function versioned(version, schema) {
  const base3 = `/api/v${version}/contacts`;
  return {
    create: {
      method: "POST",
      path: base3,
      fn: "contacts",
      operationId: `createContactV${version}`,
      summary: `Submit one number for classification (v${version})`,
      tags: ["contacts"],
      rateLimited: true,
      request: { body: CreateContactBody },
      responses: { 201: { description: "Contact queued (or the existing contact for a replayed idempotency_key)", schema }, ...createErrors }
    },
    list: {
      method: "GET",
      path: base3,
      fn: "contacts",
      operationId: `listContactsV${version}`,
      summary: `List contacts, newest first (v${version})`,
      tags: ["contacts"],
      request: { query: ListQuery },
      responses: {
        200: { description: "A page of contacts", schema: z7.object({ data: z7.array(schema), next_cursor: z7.string().nullable() }) },
        400: { description: "Invalid query", schema: ErrorEnvelope },
        ...authErrors
      }
    },
    get: {
      method: "GET",
      path: `${base3}/{contact_id}`,
      fn: "contacts",
      operationId: `getContactV${version}`,
      summary: `The latest snapshot of one contact (v${version})`,
      tags: ["contacts"],
      request: { params: IdParams },
      responses: { 200: { description: "Contact", schema }, 404: { description: "Unknown or another organization\u2019s", schema: ErrorEnvelope }, ...authErrors }
    }
  };
}
var contactsV1Routes = versioned(1, ContactV1);
var contactsV2Routes = versioned(2, ContactV2);

// lambdas/uploads/routes.ts
import * as z10 from "zod";

// lambdas/uploads/request.ts
import Busboy from "busboy";
import * as z9 from "zod";

// lambdas/platform/domain-errors.ts
var DomainError = class extends Error {
  constructor(detail) {
    super(typeof detail === "string" ? detail : JSON.stringify(detail));
    this.detail = detail;
    this.name = new.target.name;
  }
  detail;
};
function withDetail(kind) {
  return class extends DomainError {
    kind = kind;
  };
}
function withTextDetail(kind) {
  return class extends DomainError {
    kind = kind;
    constructor(detail) {
      super(detail);
    }
  };
}
var InvalidInput = class extends withDetail("InvalidInput") {
};
var AuthenticationFailed = class extends withTextDetail("AuthenticationFailed") {
};
var InsufficientCredits = class extends withTextDetail("InsufficientCredits") {
};
var Forbidden = class extends withTextDetail("Forbidden") {
};
var NotFound = class extends DomainError {
  kind = "NotFound";
  constructor(detail = "Not found") {
    super(detail);
  }
};
var Conflict = class extends withDetail("Conflict") {
};
var Removed = class extends withTextDetail("Removed") {
};
var TooLarge = class extends withTextDetail("TooLarge") {
};
var UnsupportedContentType = class extends withTextDetail("UnsupportedContentType") {
};
var TooFewNumbers = class extends withDetail("TooFewNumbers") {
};
var RateLimited = class extends DomainError {
  constructor(detail, state) {
    super(detail);
    this.state = state;
  }
  state;
  kind = "RateLimited";
};
var UpstreamFailed = class extends withTextDetail("UpstreamFailed") {
};
function isRefusal(error) {
  return error instanceof DomainError && error.kind !== "UpstreamFailed";
}

// lambdas/platform/http/validation.ts
function describeZodError(error) {
  return error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.join(".");
    return path ? `${path}: ${issue.message}` : issue.message;
  }).join("; ");
}
function parseOr400(schema, value, what) {
  const result = schema.safeParse(value);
  if (!result.success) throw new InvalidInput(`Invalid ${what}: ${describeZodError(result.error)}`);
  return result.data;
}
function parseParamsOr404(schema, value) {
  const result = schema.safeParse(value);
  if (!result.success) throw new NotFound(result.error.issues[0]?.message ?? "Not found");
  return result.data;
}

// lambdas/uploads/csv.ts
var CsvSyntaxError = class extends Error {
  name = "CsvSyntaxError";
};
var parses = 0;
function parseCsv(input) {
  parses++;
  const bom = input.charCodeAt(0) === 65279;
  const text = input;
  const records = [];
  let i = bom ? 1 : 0;
  const n = text.length;
  while (i < n) {
    const start = i;
    const fields = [];
    let eol = "";
    for (; ; ) {
      let value;
      if (text.charCodeAt(i) === 34) {
        let j = i + 1;
        let out = "";
        let segment = j;
        for (; ; ) {
          const q = text.indexOf('"', j);
          if (q === -1) throw new CsvSyntaxError(`Unterminated quoted field starting at character ${i}`);
          if (text.charCodeAt(q + 1) === 34) {
            out += text.slice(segment, q + 1);
            j = q + 2;
            segment = j;
            continue;
          }
          out += text.slice(segment, q);
          i = q + 1;
          break;
        }
        value = out;
        while (i < n && text[i] !== "," && text[i] !== "\n" && text[i] !== "\r") value += text[i++];
      } else {
        let j = i;
        while (j < n) {
          const c2 = text.charCodeAt(j);
          if (c2 === 44 || c2 === 10 || c2 === 13) break;
          j++;
        }
        value = text.slice(i, j);
        i = j;
      }
      fields.push(value);
      if (i >= n) break;
      const c = text.charCodeAt(i);
      if (c === 44) {
        i++;
        if (i >= n) {
          fields.push("");
          break;
        }
        continue;
      }
      if (c === 13 && text.charCodeAt(i + 1) === 10) {
        eol = "\r\n";
        i += 2;
      } else {
        eol = c === 13 ? "\r" : "\n";
        i++;
      }
      break;
    }
    const end = i - eol.length;
    if (end > start) records.push({ fields, start, end, eol });
  }
  return { bom, records };
}
var NEEDS_QUOTES = /[",\r\n]|^[\s\uFEFF]|\s$/;
var FORMULA_START = /^[=+\-@\t\r]/;
function csvField(value) {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}
function startsLikeFormula(value) {
  return FORMULA_START.test(value);
}
function safeCsvCell(value) {
  return startsLikeFormula(value) ? `"'${value.replaceAll('"', '""')}"` : csvField(value);
}
function csvLine(values) {
  return values.length === 1 && values[0] === "" ? '""' : values.map(csvField).join(",");
}

// lambdas/classification/vocabulary.ts
var ANSWER_INTENTS = ["Likely Answer", "Likely Call Screening", "Likely Voicemail", "Non-Mobile", "Unknown"];
var TIERS = [
  "1 - Likely Right-Party Answer",
  "2 - Likely Answer",
  "3 - Likely Right-Party Call Screening",
  "4 - Likely Call Screening",
  "5 - Likely Right-Party Voicemail",
  "6 - Likely Voicemail",
  "7 - Non-Mobile",
  "8 - Likely Wrong Number",
  "Unknown"
];
var RIGHT_PARTY = {
  "Likely Answer": ["1 - Likely Right-Party Answer", "2 - Likely Answer"],
  "Likely Call Screening": ["3 - Likely Right-Party Call Screening", "4 - Likely Call Screening"],
  "Likely Voicemail": ["5 - Likely Right-Party Voicemail", "6 - Likely Voicemail"]
};
function deriveStatus(ai, identity) {
  if (identity === null) return ai;
  if (identity === "Low") return "8 - Likely Wrong Number";
  if (ai === "Non-Mobile") return "7 - Non-Mobile";
  if (ai === "Unknown") return "Unknown";
  const [rightParty, plain] = RIGHT_PARTY[ai];
  return identity === "Very High" || identity === "High" || identity === "Medium" ? rightParty : plain;
}

// lambdas/classification/normalize.ts
import { parsePhoneNumberFromString as parsePhoneNumberFromString2 } from "libphonenumber-js/core";

// lambdas/classification/nanp-metadata.max.json
var nanp_metadata_max_default = { version: 4, country_calling_codes: { "1": ["US", "AG", "AI", "AS", "BB", "BM", "BS", "CA", "DM", "DO", "GD", "GU", "JM", "KN", "KY", "LC", "MP", "MS", "PR", "SX", "TC", "TT", "VC", "VG", "VI"] }, countries: { US: ["1", "011", "[2-9]\\d{9}|3\\d{6}", [10], [["(\\d{3})(\\d{4})", "$1-$2", ["310"], 0, 1], ["(\\d{3})(\\d{3})(\\d{4})", "($1) $2-$3", ["[2-9]"], 0, 1, "$1-$2-$3"]], "1", 0, 0, 0, 0, 0, [["983[2-57-9]\\d{6}|(?:2(?:0[1-35-9]|1[02-9]|2[03-57-9]|3[1459]|4[08]|5[1-46]|6[0279]|7[02469]|8[13])|3(?:0[1-57-9]|1[02-9]|2[013-79]|3[0-24679]|4[167]|5[0-3]|6[01349]|8[056])|4(?:0[124-9]|1[02-579]|2[3-5]|3[0245]|4[023578]|58|6[349]|7[02589]|8[04])|5(?:0[1-57-9]|1[0235-8]|20|3[0149]|4[01]|5[179]|6[1-47]|7[0-5]|8[0256])|6(?:0[1-35-9]|1[024-9]|2[03689]|3[016]|4[0156]|5[01679]|6[0-279]|78|8[0-269])|7(?:0[1-46-8]|1[2-9]|2[04-8]|3[0-2478]|4[0378]|5[47]|6[02359]|7[0-59]|8[156])|8(?:0[1-68]|1[02-8]|2[0168]|3[0-2589]|4[03578]|5[046-9]|6[02-5]|7[028])|9(?:0[1346-9]|1[02-9]|2[0589]|3[0146-8]|4[01357-9]|5[12469]|7[0-3589]|8[04-69]))[2-9]\\d{6}"], [""], ["8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["900[2-9]\\d{6}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"]]], AG: ["1", "011", "(?:268|[58]\\d\\d|900)\\d{7}", [10], 0, "1", 0, "([457]\\d{6})$|1", "268$1", 0, "268", [["268(?:4(?:6[0-38]|84)|56[0-2])\\d{4}"], ["268(?:464|7(?:1[3-9]|[28]\\d|3[0246]|64|7[0-689]))\\d{4}"], ["8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["900[2-9]\\d{6}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"], 0, 0, ["26840[69]\\d{4}"], ["26848[01]\\d{4}"]]], AI: ["1", "011", "(?:264|[58]\\d\\d|900)\\d{7}", [10], 0, "1", 0, "([2457]\\d{6})$|1", "264$1", 0, "264", [["264(?:292|4(?:6[12]|9[78]))\\d{4}"], ["264(?:235|4(?:69|7[67])|5(?:3[6-9]|8[1-4])|7(?:29|72))\\d{4}"], ["8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["900[2-9]\\d{6}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"], 0, 0, ["264724\\d{4}"]]], AS: ["1", "011", "(?:[58]\\d\\d|684|900)\\d{7}", [10], 0, "1", 0, "([267]\\d{6})$|1", "684$1", 0, "684", [["684(?:274|6(?:22|33|44|55|77|88|9[19]))\\d{4}"], ["684(?:2(?:48|5[2468]|7[246])|7(?:3[13]|70|82))\\d{4}"], ["8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["900[2-9]\\d{6}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"]]], BB: ["1", "011", "(?:246|[58]\\d\\d|900)\\d{7}", [10], 0, "1", 0, "([2-9]\\d{6})$|1", "246$1", 0, "246", [["246521[0369]\\d{3}|246(?:2(?:2[78]|7[0-4])|4(?:1[024-6]|2\\d|3[2-9])|5(?:20|[34]\\d|54|7[1-3])|6(?:2\\d|38)|7[35]7|9(?:1[89]|63))\\d{4}"], ["246(?:(?:2(?:[3568]\\d|4[0-57-9])|3(?:5[2-9]|6[0-6])|4(?:46|5\\d)|69[5-7]|8(?:[2-5]\\d|83))\\d|52(?:1[147]|20))\\d{3}"], ["8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["(?:246976|900[2-9]\\d\\d)\\d{4}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"], 0, ["246(?:292|367|4(?:1[7-9]|3[01]|4[47-9]|67)|7(?:1[2-9]|2\\d|3[016]|53))\\d{4}"], 0, ["24631\\d{5}"]]], BM: ["1", "011", "(?:441|[58]\\d\\d|900)\\d{7}", [10], 0, "1", 0, "([2-9]\\d{6})$|1", "441$1", 0, "441", [["441(?:[46]\\d\\d|5(?:4\\d|60|89))\\d{4}"], ["441(?:[2378]\\d|5[0-39]|9[02])\\d{5}"], ["8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["900[2-9]\\d{6}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"]]], BS: ["1", "011", "(?:242|[58]\\d\\d|900)\\d{7}", [10], 0, "1", 0, "([3-8]\\d{6})$|1", "242$1", 0, "242", [["242(?:3(?:02|[236][1-9]|4[0-24-9]|5[0-68]|7[347]|8[0-4]|9[2-467])|461|502|6(?:0[1-5]|12|2[013]|[45]0|7[67]|8[78]|9[89])|7(?:02|88))\\d{4}"], ["242(?:3(?:5[79]|7[56]|95)|4(?:[23][1-9]|4[1-35-9]|5[1-8]|6[2-8]|7\\d|81)|5(?:2[45]|3[35]|44|5[1-46-9]|65|77)|6[34]6|7(?:27|38)|8(?:0[1-9]|1[02-9]|2\\d|3[0-4]|[89]9))\\d{4}"], ["242300\\d{4}|8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["900[2-9]\\d{6}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"], 0, ["242225\\d{4}"]]], CA: ["1", "011", "[2-9]\\d{9}|3\\d{6}", [7, 10], 0, "1", 0, 0, 0, 0, 0, [["(?:2(?:04|[23]6|[48]9|5[07]|[67]3)|3(?:06|43|54|6[578]|82)|4(?:03|1[68]|[26]8|3[178]|50|74)|5(?:06|1[49]|48|79|8[147])|6(?:04|[18]3|39|47|72)|7(?:0[59]|42|53|78|8[02])|8(?:[06]7|19|25|7[39])|9(?:0[25]|42))[2-9]\\d{6}", [10]], ["", [10]], ["8(?:00|33|44|55|66|77|88)[2-9]\\d{6}", [10]], ["900[2-9]\\d{6}", [10]], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|(?:5(?:2[125-9]|3[23]|44|66|77|88)|6(?:22|33))[2-9]\\d{6}", [10]], 0, ["310\\d{4}", [7]], 0, ["600[2-9]\\d{6}", [10]]]], DM: ["1", "011", "(?:[58]\\d\\d|767|900)\\d{7}", [10], 0, "1", 0, "([2-7]\\d{6})$|1", "767$1", 0, "767", [["767(?:2(?:55|66)|4(?:2[01]|4[0-25-9])|50[0-4])\\d{4}"], ["767(?:2(?:[2-4689]5|7[5-7])|31[5-7]|61[1-8]|70[1-6])\\d{4}"], ["8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["900[2-9]\\d{6}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"]]], DO: ["1", "011", "(?:[58]\\d\\d|900)\\d{7}", [10], 0, "1", 0, 0, 0, 0, "8001|8[024]9", [["8(?:[04]9[2-9]\\d\\d|29(?:2(?:[0-59]\\d|6[04-9]|7[0-27]|8[0237-9])|3(?:[0-35-9]\\d|4[7-9])|[45]\\d\\d|6(?:[0-27-9]\\d|[3-5][1-9]|6[0135-8])|7(?:0[013-9]|[1-37]\\d|4[1-35689]|5[1-4689]|6[1-57-9]|8[1-79]|9[1-8])|8(?:0[146-9]|1[0-48]|[248]\\d|3[1-79]|5[01589]|6[013-68]|7[124-8]|9[0-8])|9(?:[0-24]\\d|3[02-46-9]|5[0-79]|60|7[0169]|8[57-9]|9[02-9])))\\d{4}"], ["8[024]9[2-9]\\d{6}"], ["800(?:14|[2-9]\\d)\\d{5}|8[024]9[01]\\d{6}|8(?:33|44|55|66|77|88)[2-9]\\d{6}"], ["900[2-9]\\d{6}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"]]], GD: ["1", "011", "(?:473|[58]\\d\\d|900)\\d{7}", [10], 0, "1", 0, "([2-9]\\d{6})$|1", "473$1", 0, "473", [["473(?:2(?:3[0-2]|69)|3(?:2[89]|86)|4(?:[06]8|3[5-9]|4[0-4]|5[59]|73|90)|63[68]|7(?:58|84)|800|938)\\d{4}"], ["473(?:4(?:0[2-79]|1[04-9]|2[0-5]|49|5[6-8])|5(?:2[01]|3[3-8])|901)\\d{4}"], ["8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["900[2-9]\\d{6}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"]]], GU: ["1", "011", "(?:[58]\\d\\d|671|900)\\d{7}", [10], 0, "1", 0, "([2-9]\\d{6})$|1", "671$1", 0, "671", [["671(?:2\\d\\d|3(?:00|3[39]|4[349]|55|6[26])|4(?:00|56|7[1-9]|8[02-9])|5(?:55|6[2-5]|88)|6(?:3[2-578]|4[24-9]|5[34]|78|8[235-9])|7(?:[0479]7|2[0167]|3[45]|8[7-9])|8(?:[2-57-9]8|6[478])|9(?:2[29]|6[79]|7[1279]|8[7-9]|9[16-9]))\\d{4}"], [""], ["8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["900[2-9]\\d{6}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"]]], JM: ["1", "011", "(?:[58]\\d\\d|658|900)\\d{7}", [10], 0, "1", 0, 0, 0, 0, "658|876", [["8766060\\d{3}|(?:658(?:2(?:[5-8]\\d|9[0-46-9])|[3-9]\\d\\d)|876(?:52[35]|6(?:0[1-3579]|1[0235-9]|[23]\\d|40|5[06]|6[2-589]|7[0-25-9]|8[04]|9[4-9])|7(?:0[2-689]|[1-6]\\d|8[056]|9[45])|9(?:0[1-8]|1[02378]|[2-8]\\d|9[2-468])))\\d{4}"], ["(?:6582(?:[0-4]\\d|95)|876(?:2(?:0[1-9]|[13-9]\\d|2[013-9])|[348]\\d\\d|5(?:0[1-9]|[1-9]\\d)|6(?:4[89]|6[67])|7(?:0[07]|7\\d|8[1-47-9]|9[0-36-9])|9(?:[01]9|9[0579])))\\d{4}"], ["8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["900[2-9]\\d{6}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"]]], KN: ["1", "011", "(?:[58]\\d\\d|900)\\d{7}", [10], 0, "1", 0, "([2-7]\\d{6})$|1", "869$1", 0, "869", [["869(?:2(?:29|36)|302|4(?:6[015-9]|70)|56[5-7])\\d{4}"], ["869(?:48[89]|55[6-8]|66\\d|76[02-7])\\d{4}"], ["8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["900[2-9]\\d{6}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"]]], KY: ["1", "011", "(?:345|[58]\\d\\d|900)\\d{7}", [10], 0, "1", 0, "([2-9]\\d{6})$|1", "345$1", 0, "345", [["345(?:2(?:22|3[23]|44|66)|333|444|6(?:23|38|40)|7(?:30|4[35-79]|6[6-9]|77)|8(?:00|1[45]|4[89]|88)|9(?:14|4[035-9]))\\d{4}"], ["345(?:32[1-9]|4(?:1[2-6]|2[0-4])|5(?:1[67]|2[5-79]|4[6-9]|50|76)|649|82[56]|9(?:1[679]|2[2-9]|3[06-9]|90))\\d{4}"], ["8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["(?:345976|900[2-9]\\d\\d)\\d{4}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"]]], LC: ["1", "011", "(?:[58]\\d\\d|758|900)\\d{7}", [10], 0, "1", 0, "([2-8]\\d{6})$|1", "758$1", 0, "758", [["758(?:234|4(?:30|5\\d|6[2-9]|8[0-2])|57[0-2]|(?:63|75)8)\\d{4}"], ["758(?:28[4-7]|384|4(?:6[01]|8[4-9])|5(?:1[89]|20|84)|7(?:1[2-9]|2\\d|3[0-3])|812)\\d{4}"], ["8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["900[2-9]\\d{6}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"]]], MP: ["1", "011", "[58]\\d{9}|(?:67|90)0\\d{7}", [10], 0, "1", 0, "([2-9]\\d{6})$|1", "670$1", 0, "670", [["670(?:2(?:3[3-7]|56|8[4-8])|32[1-38]|4(?:33|8[348])|5(?:32|55|88)|6(?:64|70|82)|78[3589]|8[3-9]8|989)\\d{4}"], [""], ["8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["900[2-9]\\d{6}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"]]], MS: ["1", "011", "(?:[58]\\d\\d|664|900)\\d{7}", [10], 0, "1", 0, "([34]\\d{6})$|1", "664$1", 0, "664", [["6644(?:1[0-3]|91)\\d{4}"], ["664(?:3(?:49|9[1-6])|49[2-6])\\d{4}"], ["8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["900[2-9]\\d{6}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"]]], PR: ["1", "011", "(?:[589]\\d\\d|787)\\d{7}", [10], 0, "1", 0, 0, 0, 0, "787|939", [["(?:787|939)[2-9]\\d{6}"], [""], ["8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["900[2-9]\\d{6}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"]]], SX: ["1", "011", "7215\\d{6}|(?:[58]\\d\\d|900)\\d{7}", [10], 0, "1", 0, "(5\\d{6})$|1", "721$1", 0, "721", [["7215(?:4[2-8]|8[39]|9[056])\\d{4}"], ["7215(?:1[02]|2\\d|5[034679]|8[0-24-8])\\d{4}"], ["8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["900[2-9]\\d{6}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"]]], TC: ["1", "011", "(?:[58]\\d\\d|649|900)\\d{7}", [10], 0, "1", 0, "([2-479]\\d{6})$|1", "649$1", 0, "649", [["649(?:266|712|9(?:4\\d|50))\\d{4}"], ["649(?:2(?:3[129]|4[1-79])|3\\d\\d|4[34][1-3])\\d{4}"], ["8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["900[2-9]\\d{6}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"], 0, 0, 0, ["649(?:71[01]|966)\\d{4}"]]], TT: ["1", "011", "(?:[58]\\d\\d|900)\\d{7}", [10], 0, "1", 0, "([2-46-8]\\d{6})$|1", "868$1", 0, "868", [["868(?:2(?:01|1[5-9]|[23]\\d|4[0-2])|6(?:0[7-9]|1[02-8]|2[1-9]|[3-69]\\d|7[0-79])|82[124])\\d{4}"], ["868(?:(?:2[5-9]|3\\d)\\d|4(?:3[0-6]|[6-9]\\d)|6(?:20|78|8\\d)|7(?:0[1-9]|1[02-9]|[2-9]\\d))\\d{4}"], ["868800\\d{4}|8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["900[2-9]\\d{6}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"], ["868619\\d{4}"]]], VC: ["1", "011", "(?:[58]\\d\\d|784|900)\\d{7}", [10], 0, "1", 0, "([2-7]\\d{6})$|1", "784$1", 0, "784", [["784(?:266|3(?:6[6-9]|7\\d|8[0-6])|4(?:38|5[0-36-8]|8[0-8])|5(?:55|7[0-2]|93)|638|784)\\d{4}"], ["784(?:4(?:3[0-5]|5[45]|89|9[0-8])|5(?:2[6-9]|3[0-4])|720)\\d{4}"], ["8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["900[2-9]\\d{6}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"], 0, 0, 0, ["78451[0-2]\\d{4}"]]], VG: ["1", "011", "(?:284|[58]\\d\\d|900)\\d{7}", [10], 0, "1", 0, "([2-578]\\d{6})$|1", "284$1", 0, "284", [["284(?:229|4(?:22|9[45])|774|8(?:52|6[459]))\\d{4}"], ["284(?:245|3(?:0[0-3]|4[0-7]|68|9[34])|4(?:4[0-6]|68|9[69])|5(?:4[0-7]|68|9[69]))\\d{4}"], ["8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["900[2-9]\\d{6}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"]]], VI: ["1", "011", "[58]\\d{9}|(?:34|90)0\\d{7}", [10], 0, "1", 0, "([2-9]\\d{6})$|1", "340$1", 0, "340", [["340(?:2(?:0\\d|10|2[06-8]|4[49]|77)|3(?:32|44)|4(?:2[23]|44|7[34]|89)|5(?:1[34]|55)|6(?:2[56]|4[23]|77|9[023])|7(?:1[2-57-9]|2[57]|7\\d)|884|998)\\d{4}"], [""], ["8(?:00|33|44|55|66|77|88)[2-9]\\d{6}"], ["900[2-9]\\d{6}"], ["52(?:3(?:[2-46-9][02-9]\\d|5(?:[02-46-9]\\d|5[0-46-9]))|4(?:[2-478][02-9]\\d|5(?:[034]\\d|2[024-9]|5[0-46-9])|6(?:0[1-9]|[2-9]\\d)|9(?:[05-9]\\d|2[0-5]|49)))\\d{4}|52[34][2-9]1[02-9]\\d{4}|5(?:00|2[125-9]|3[23]|44|66|77|88)[2-9]\\d{6}"]]] }, nonGeographic: {} };

// lambdas/classification/nanp-prefixes.json
var nanp_prefixes_default = { version: 4, classes: [[false, null, null], [true, "US", "FIXED_LINE_OR_MOBILE"], [true, "CA", "FIXED_LINE_OR_MOBILE"], [true, "BS", "UAN"], [true, "BS", "TOLL_FREE"], [true, "BS", "FIXED_LINE"], [true, "BS", "MOBILE"], [true, "BB", "FIXED_LINE"], [true, "BB", "MOBILE"], [true, "BB", "UAN"], [true, "BB", "VOIP"], [true, "BB", "PREMIUM_RATE"], [true, "AI", "MOBILE"], [true, "AI", "FIXED_LINE"], [true, "AI", "PAGER"], [true, "AG", "PAGER"], [true, "AG", "FIXED_LINE"], [true, "AG", "MOBILE"], [true, "AG", "VOIP"], [true, "VG", "FIXED_LINE"], [true, "VG", "MOBILE"], [true, "VI", "FIXED_LINE_OR_MOBILE"], [true, "KY", "FIXED_LINE"], [true, "KY", "MOBILE"], [true, "KY", "PREMIUM_RATE"], [true, "BM", "MOBILE"], [true, "BM", "FIXED_LINE"], [true, "GD", "FIXED_LINE"], [true, "GD", "MOBILE"], [true, "US", "PERSONAL_NUMBER"], [true, "CA", "VOIP"], [true, "CA", "PERSONAL_NUMBER"], [true, "TC", "MOBILE"], [true, "TC", "FIXED_LINE"], [true, "TC", "VOIP"], [true, "JM", "MOBILE"], [true, "JM", "FIXED_LINE"], [true, "MS", "MOBILE"], [true, "MS", "FIXED_LINE"], [true, "MP", "FIXED_LINE_OR_MOBILE"], [true, "GU", "FIXED_LINE_OR_MOBILE"], [true, "AS", "MOBILE"], [true, "AS", "FIXED_LINE_OR_MOBILE"], [true, "AS", "FIXED_LINE"], [true, "SX", "MOBILE"], [true, "SX", "FIXED_LINE"], [true, "LC", "FIXED_LINE"], [true, "LC", "MOBILE"], [true, "DM", "MOBILE"], [true, "DM", "FIXED_LINE"], [true, "VC", "FIXED_LINE"], [true, "VC", "MOBILE"], [true, "VC", "VOIP"], [true, "PR", "FIXED_LINE_OR_MOBILE"], [true, "DO", "TOLL_FREE"], [true, "US", "TOLL_FREE"], [true, "DO", "FIXED_LINE_OR_MOBILE"], [true, "DO", "MOBILE"], [true, "TT", "FIXED_LINE"], [true, "TT", "MOBILE"], [true, "TT", "VOICEMAIL"], [true, "TT", "TOLL_FREE"], [true, "KN", "FIXED_LINE"], [true, "KN", "MOBILE"], [true, "JM", "FIXED_LINE_OR_MOBILE"], [true, "US", "PREMIUM_RATE"]], digits: [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 6, 4, 4, 4, 7, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 6, 4, 4, 4, 6, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 6, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 6, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 6, 4, 4, 4, 4, 6, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 6, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 6, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 6, 4, 4, 4, 4, 4, 4, 4, 4, 6, 4, 4, 4, 4, 4, 6, 4, 4, 4, 4, 4, 6, 6, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 6, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 6, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 6, 4, 4, 4, 4, 4, 4, 4, 4, 6, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 6, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 7, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4], runs: ["0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,2*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,2*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*2,1*8", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*2,2*8", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*10", "0*225,3,0*74,4,0,5,0*18,5*9,0,5*12,0,5*13,6,5,6,0,5*9,0*3,5*2,6*2,5,0*2,5*5,0*7,5*3,6,5*2,0*23,6*9,0,6*9,0,6*3,0,6*5,0,6*8,0*2,5,6*7,0,6*10,0,6,0*20,5,0*21,6*2,0*7,6,0,6,0*8,6,0*6,6*4,0,6*4,0*5,6,0*11,6,0*23,5*5,0*6,5,0*7,5*2,0,5,0*12,6,0*3,5,0*5,6,0*3,5,0*25,5*2,0*9,5*2,0*9,5*2,0*2,5,0*24,6,0*10,6,0*49,5,0*12,6*10,0,6*23,0*54,6,0*9,6,0*100", "0*10", "0*10", "0*10", "0*2270,7*20,0*10,8*160,0*10,8*230,7*50,0*50,8*100,0*20,9*10,0*170,10*100,0*320,8*150,9*10,0*420,7*10,0*10,7*10,0*10,7*30,9*30,7*100,9*20,7*80,0*40,9*10,0*10,8*10,9*30,8*100,0*70,9*10,0*520,7*11,8,0,7,8,0,7,8,0,7,8,0*79,7*200,0*40,7*10,0*160,7*30,0*460,7*100,0*80,7*10,0*560,8*30,0*140,9*200,0*40,9*10,7*10,0*150,9*10,0*30,7*10,0*620,8*400,0*230,8*10,0*340,7*20,0*430,7*10,0*120,11*10,0*230", "0*10", "0*2,1*8", "0*2,2*8", "0*2,2*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*2,1*8", "0*2,2*8", "0*10", "0*10", "0*2,1*8", "0*10", "0*2,1*8", "0*2,2*8", "0*235,12,0*56,13,0*168,13*2,0*6,12,0*6,12*2,0*19,13*2,0*37,12*4,0*41,12*4,0*139,14,0*4,12,0*42,12,0*227", "0*10", "0*10", "0*2,1*8", "0*406,15,0*2,15,0*50,16*4,17,0*3,16,0*11,18*2,0*2,16,0*75,16*3,0*150,17*18,0,17,0,17,0,17,0*27,17,0*5,17*7,0,17*12,0*210", "0*2,1*8", "0*2,1*8", "0*10", "0*2,1*8", "0*2,2*8", "0*2,1*8", "0*10", "0*2,1*8", "0*10", "0*10", "0*2,1*8", "0*10", "0*2,1*8", "0*10", "0*2,1*8", "0*229,19,0*15,20,0*54,20*4,0*36,20*8,0*20,20,0*24,20*2,0*27,19,0*17,20*7,0*21,20,0*25,19*2,20,0*2,20,0*40,20*8,0*20,20,0*27,20,0*2,20,0*174,19,0*77,19,0*11,19*2,0*3,19,0*130", "0*10", "0*10", "0*10", "0*10", "0*2,2*8", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,2*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*200,1*800", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*2,1*8", "0*10", "0*2,1*8", "0*2,1*8", "0*10", "0*2,1*8", "0*200,21*11,0*9,21,0*5,21*3,0*15,21,0*4,21,0*27,21,0*54,21,0*11,21,0*77,21*2,0*20,21,0*28,21*2,0*14,21,0*23,21*2,0*40,21,0*69,21*2,0*15,21*2,0*33,21,0*12,21,0,21*2,0*18,21*4,0,21*3,0*5,21,0,21,0*42,21*10,0*104,21,0*113,21,0", "0*2,1*8", "0*10", "0*2,2*8", "0*10", "0*222,22,0*9,22*2,0*10,22,0*21,22,0*54,23*9,0*3,22,0*78,23*5,0*3,23*5,0*19,22,0*71,23*2,0*7,23*3,0,23,0*16,23*5,0*25,23,0*46,22,0*14,22,0,22,0*8,23,0*80,22,0*12,22,0,22*3,0,22,0*16,22*4,0*7,22,0*22,22,0*13,22*2,0*9,23*2,0*21,22*2,0*38,22,0*25,22,0,23*2,0,23,0*2,23*9,0*5,23*4,22,0*2,22,0,22*5,0*26,24,0*13,23,0*9", "0*2,1*8", "0*2,1*8", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,2*8", "0*10", "0*10", "0*10", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*10", "0*2,1*8", "0*2,1*8", "0*2,2*8", "0*10", "0*2,2*8", "0*2,2*8", "0*2,1*8", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*2,1*8", "0*10", "0*2,2*8", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*2,2*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,2*8", "0*2,1*8", "0*2,2*8", "0*2,1*8", "0*10", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*10", "0*2,2*8", "0*10", "0*2,1*8", "0*2,2*8", "0*2,1*8", "0*10", "0*2,1*8", "0*2,1*8", "0*10", "0*2,2*8", "0*2,2*8", "0*10", "0*2,1*8", "0*200,25*200,26*100,25*40,26*10,0*10,26,0*28,26,25*10,26*100,25*210,0*10,25*10,0*70", "0*2,1*8", "0*2,1*8", "0*10", "0*2,1*8", "0*10", "0*2,1*8", "0*2,1*8", "0*10", "0*2,2*8", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*2,1*8", "0*10", "0*10", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*10", "0*10", "0*10", "0*2,2*8", "0*2,1*8", "0*2,1*8", "0*10", "0*2,1*8", "0*230,27*3,0*36,27,0*58,27*2,0*56,27,0*15,28*6,27,28*2,0*3,28*12,0*9,27*10,0*4,28,0*5,27,28*3,27,0*8,27,0*4,27,0*16,27,0*29,28*2,0*11,28*6,0*97,27,0,27,0*119,27,0*25,27,0*15,27,0*100,28,0*36,27,0*61", "0*2,2*8", "0*2,1*8", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*10", "0*10", "0*2,1*8", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*2,29*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,2*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*2,1*8", "0*2,1*8", "0*2,2*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,2*8", "0*200,1*800", "0*200,29*800", "0*200,29*800", "0*200,29*11,0,29*99,0,29*99,0,29*99,0,29*43,0,29*55,0,29*99,0,29*99,0,29*99,0,29*88", "0*200,29*11,0,29*99,0,29*99,0,29*99,0,29*9,0,29,0,29*31,0,29*4,0*41,29*10,0,29*99,0,29*99,0,29*99,0,29*14,0*23,29*51", "0*200,29*800", "0*200,29*800", "0*200,29*800", "0*200,29*800", "0*200,29*800", "0*2,1*8", "0*2,1*8", "0*2,29*8", "0*2,29*8", "0*2,1*8", "0*10", "0*10", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*10", "0*2,29*8", "0*10", "0*10", "0*10", "0*2,2*8", "0*10", "0*10", "0*2,1*8", "0*10", "0*10", "0*10", "0*10", "0*10", "0*2,1*8", "0*10", "0*2,1*8", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*2,29*8", "0*2,1*8", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*2,29*8", "0*10", "0*2,2*8", "0*2,1*8", "0*2,2*8", "0*2,1*8", "0*10", "0*2,2*8", "0*2,1*8", "0*2,1*8", "0*2,2*8", "0*2,29*8", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*2,30*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,2*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*2,1*8", "0*2,2*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*2,31*8", "0*2,1*8", "0*10", "0*10", "0*2,1*8", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*2,31*8", "0*10", "0*10", "0*2,1*8", "0*10", "0*10", "0*2,2*8", "0*2,1*8", "0*2,1*8", "0*10", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*2,2*8", "0*10", "0*231,32*2,0*6,32,0,32*7,0,32,0*16,33,0*33,32*100,0*31,32*3,0*7,32*3,0*266,34*2,33,0*227,33*11,0*15,34,0*33", "0*2,1*8", "0*2,1*8", "0*10", "0*10", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*200,35*50,36*45,35,36*704", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*349,37,0*41,37*6,0*13,38*4,0*77,38,37*5,0*503", "0*10", "0*10", "0*2,1*8", "0*10", "0*2,1*8", "0*233,39*5,0*18,39,0*27,39*5,0*32,39*3,0*4,39,0*104,39,0*49,39*2,0*3,39,0*43,39,0*22,39,0*32,39,0*75,39,0*5,39,0*11,39,0*100,39,0,39,0*2,39*2,0*48,39,0*9,39,0*9,39,0*9,39,0*9,39,0*9,39,0*9,39,0*90,39,0*10", "0*200,40*101,0*32,40,0*5,40,0*3,40*2,0*4,40,0*5,40,0*6,40,0*3,40,0*33,40,0*55,40,0*14,40*10,0,40*8,0*65,40,0*6,40*4,0*22,40,0*43,40*4,0,40*2,0*3,40,0,40*6,0*3,40*2,0*23,40,0*3,40*2,0,40*5,0*17,40,0*12,40*2,0*4,40*2,0*6,40*2,0*11,40,0*29,40,0*9,40*3,0*7,40,0*30,40,0*9,40,0*9,40,0*9,40,0*5,40,0*2,40*2,0*9,40,0*9,40,0*9,40,0*23,40,0*6,40,0*37,40,0,40,0,40*2,0*4,40,0,40,0*7,40*3,0,40,0*4,40*4", "0*2,2*8", "0*10", "0*10", "0*10", "0*10", "0*10", "0*2,1*8", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,2*8", "0*248,41,0*3,41,0,41,0,41,0,41,0*13,41,0,42,0,41,0*345,43,0*10,43,0*10,43,0*10,43,0*21,43,0*10,43,0*2,43,0*7,43,0*31,41,0,41,0*36,41,0*11,41,0*217", "0*10", "0*2,1*8", "0*10", "0*10", "0*2,1*8", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,2*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,2*8", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*510,44,0,44,0*7,44*10,0*12,45*7,0,44,0*2,44*2,0,44*2,0,44,0*20,44*3,45,44*5,45*2,0*4,45*2,0*403", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*2,1*8", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*10", "0*2,1*8", "0*10", "0*2,2*8", "0*2,1*8", "0*10", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*10", "0*10", "0*10", "0*10", "0*2,2*8", "0*2,1*8", "0*10", "0*10", "0*2,1*8", "0*234,46,0*49,47*4,0*96,47,0*45,46,0*19,46*10,47*2,46*8,0*10,46*3,0,47*6,0*28,47*3,0*49,46*3,0*11,47,0*53,46,0*73,47*22,0*24,46,0*53,47,0*187", "0*10", "0*2,1*8", "0*10", "0*2,1*8", "0*2,1*8", "0*10", "0*2,1*8", "0*10", "0*225,48,0*9,48,0*9,48,0*9,49,0*9,48,49,0*8,48*3,0*7,48,0*9,48,0*19,48*3,0*102,49*2,0*18,49*3,0*2,49*5,0*50,49*5,0*106,48*8,0*82,48*6,0*293", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*10", "0*2,2*8", "0*2,1*8", "0*2,2*8", "0*2,1*8", "0*2,2*8", "0*10", "0*266,50,0*99,50*21,0*43,51*6,0*2,50,0*11,50*4,51*2,50*3,0*21,50*9,51*10,0*11,52*3,0*13,51*9,0*20,50,0*14,50*3,0*20,50,0*44,50,0*81,51,0*63,50,0*215", "0*2,1*8", "0*2,1*8", "0*2,53*8", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*140,54*10,0*50,55*800", "0*200,1*800", "0*200,1*800", "0*200,1*800", "0*200,1*800", "0*200,1*800", "0*200,1*800", "0*200,2*800", "0*200,1*800", "54*200,56*800", "0*200,1*800", "0*1000", "0*200,1*800", "0*200,1*800", "0*200,1*800", "0*200,1*800", "0*200,1*800", "0*200,1*800", "0*200,1*800", "0*200,2*800", "0*200,1*800", "0*200,1*800", "0*1000", "0*1000", "0*1000", "0*200,2*800", "0*200,1*800", "0*1000", "0*200,1*800", "54*200,56*61,57*3,56*9,57*4,56,57*2,56,57,56*2,57*3,56*53,57*7,56*283,57,56*9,57,56*9,57,56*11,57,56,57,56*4,57,56*32,57,56*37,57,56*3,57,56*2,57,56*2,57,56*4,57,56,57,56*2,57,56*5,57,56*13,57,56*7,57,56,57,56*8,57*2,56,57*2,56,57,56*9,57*3,56,57,56*10,57,56*7,57,56*13,57*3,56,57*2,56*4,57,56*4,57,56,57*2,56*2,57,56*5,57,56*19,57,56*31,57,56*3,57,56*22,57,56*2,57*9,56*2,57*4,56,57*2,56,57*5,56,57,56*4,57,56*8", "0*200,1*800", "0*200,1*800", "0*200,1*800", "0*200,55*800", "0*1000", "0*200,1*800", "0*1000", "0*1000", "0*200,1*800", "0*200,1*800", "0*200,1*800", "0*1000", "0*1000", "0*200,1*800", "0*200,55*800", "0*200,1*800", "0*1000", "0*200,1*800", "0*200,1*800", "54*200,56*800", "0*200,1*800", "0*1000", "0*1000", "0*1000", "0*200,1*800", "0*200,55*800", "0*200,1*800", "0*200,1*800", "0*200,1*800", "0*200,1*800", "0*200,1*800", "0*1000", "0*200,1*800", "0*200,1*800", "0*200,1*800", "0*200,1*800", "0*200,55*800", "0*200,2*800", "0*201,58,0*13,58*28,0*7,59*150,0*30,59*7,0*23,59*40,0*107,58*4,0,58*7,60,59,58*57,59,58,59*10,58*10,0,59*10,0,59*88,61,0*20,58*2,0,58,0*175", "0*229,62,0*6,62,0*65,62,0*157,62*2,0*3,62*6,0*17,63*2,0*66,63*3,0*6,62*3,0*92,63*10,0*90,63,0,63*6,0*232", "0*200,1*800", "0*1000", "0*200,1*800", "0*200,2*800", "0*1000", "0*1000", "0*2010,35*210,0*10,35*2770,0*10,35*220,64*10,35*10,64*10,35*740,0*10,36*30,0*10,36*11,0*9,36*10,0*10,36*20,0*10,36*20,0*10,36*260,0*70,35*20,36*10,0*50,36*10,0*50,36*40,35*20,36*50,0*20,36*60,0*30,36*10,0*90,36*60,35*10,0*10,36*50,35*10,36*620,35*100,36*10,35*40,36*20,35*70,36*20,35*1040,0*10,36*80,35*10,36*10,0*10,36*20,0*30,36*20,35*10,36*700,35*10,0*10,36*30,35*10,36*10,35*10,36*10,35*10", "0*200,55*800", "0*200,1*800", "0*200,2*800", "0*1000", "0*1000", "0*1000", "0*1000", "0*1000", "0*1000", "0*1000", "0*1000", "0*200,55*800", "0*1000", "0*1000", "0*1000", "0*1000", "0*1000", "0*1000", "0*1000", "0*1000", "0*1000", "0*1000", "0*1000", "0*200,65*800", "0*2,1*8", "0*2,2*8", "0*2,1*8", "0*2,1*8", "0*2,2*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*10", "0*10", "0*10", "0*2,1*8", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*10", "0*2,1*8", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,53*8", "0*2,1*8", "0*2,1*8", "0*2,2*8", "0*2,1*8", "0*10", "0*2,1*8", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*2,1*8", "0*2,1*8", "0*10", "0*2,1*8", "0*10", "0*2,1*8", "0*10", "0*10", "0*2,1*8", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*2,1*8", "0*10", "0*10", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*10", "0*2,1*4,0,1*3", "0*2,1*8", "0*2,1*8", "0*2,1*8", "0*10", "0*10", "0*2,1*8", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10", "0*10"] };

// lambdas/classification/nanp-prefix-table.ts
import { parsePhoneNumberFromString } from "libphonenumber-js/core";
var POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7];
function loadPrefixTable(json2) {
  const base3 = new Int32Array(1e3);
  const divisor = new Float64Array(1e3);
  let total = 0;
  for (let npa = 200; npa <= 999; npa++) {
    const k = json2.digits[npa - 200];
    if (k < 3 || k > 10) throw new Error(`nanp-prefixes.json: area code ${npa} has ${k} deciding digits`);
    base3[npa] = total;
    divisor[npa] = POW10[10 - k] ?? 1;
    total += 10 ** (k - 3);
  }
  const table2 = new Uint8Array(total);
  let at = 0;
  for (let npa = 200; npa <= 999; npa++) {
    for (const run of json2.runs[npa - 200].split(",")) {
      const [id, count] = run.split("*");
      table2.fill(Number(id), at, at + Number(count ?? 1));
      at += Number(count ?? 1);
    }
    if (at !== (npa === 999 ? total : base3[npa + 1])) throw new Error(`nanp-prefixes.json: area code ${npa} has the wrong number of prefixes`);
  }
  const classes = json2.classes.map(([valid, region, type]) => ({ valid, region, type }));
  return {
    classes,
    classOf: (national) => {
      const npa = Math.floor(national / 1e7);
      return table2[base3[npa] + Math.floor((national - npa * 1e7) / divisor[npa])];
    }
  };
}

// lambdas/classification/scan-nanp.ts
var NOT_READ = -1;
var isDigit = (c) => c >= 48 && c <= 57;
var isPunctuation = (c) => c === 32 || c === 45 || c === 46 || c === 47 || c === 40 || c === 41 || c === 91 || c === 93;
var lower = (c) => c | 32;
function word(raw, i, w) {
  if (i + w.length > raw.length) return false;
  for (let k = 0; k < w.length; k++) if (lower(raw.charCodeAt(i + k)) !== w.charCodeAt(k)) return false;
  return true;
}
function scanNanp(raw) {
  const len = raw.length;
  if (len > 250) return NOT_READ;
  let start = -1;
  let end = -1;
  for (let i2 = 0; i2 < len; i2++) {
    const c = raw.charCodeAt(i2);
    if (c >= 128 || c === 59) return NOT_READ;
    if (isDigit(c) || c === 35) end = i2;
    else if (c === 43 && start < 0) start = i2;
    if (start < 0 && isDigit(c)) start = i2;
  }
  if (start < 0 || end < start || raw.charCodeAt(end) === 35) return NOT_READ;
  let i = start;
  const plus = raw.charCodeAt(i) === 43;
  if (plus) i++;
  let digits = 0;
  let first = 0;
  let second = 0;
  let value = 0;
  for (; i <= end; i++) {
    const c = raw.charCodeAt(i);
    if (isDigit(c)) {
      if (++digits > 11) return NOT_READ;
      const d = c - 48;
      if (digits === 1) first = d;
      else if (digits === 2) second = d;
      value = value * 10 + d;
    } else if (!isPunctuation(c)) break;
  }
  if (i <= end && !isExtension(raw, i, end)) return NOT_READ;
  if (digits === 11) return first === 1 && second >= 2 ? value - 1e10 : NOT_READ;
  if (digits === 10 && !plus) return first >= 2 ? value : NOT_READ;
  return NOT_READ;
}
function isExtension(raw, i, end) {
  const c = lower(raw.charCodeAt(i));
  if (raw.charCodeAt(i) === 35) i++;
  else if (c === 101 || c === 120) {
    if (c === 101 ? word(raw, i, "ext") : word(raw, i, "xt")) {
      i += c === 101 ? 3 : 2;
      if (word(raw, i, "ensio")) i += 5;
      if (lower(raw.charCodeAt(i)) === 110) i++;
    } else if (c === 120) i++;
    else return false;
  } else return false;
  const after = raw.charCodeAt(i);
  if (after === 58 || after === 46) i++;
  while (i <= end && (raw.charCodeAt(i) === 32 || raw.charCodeAt(i) === 45)) i++;
  const digits = end - i + 1;
  if (digits < 1 || digits > 9) return false;
  for (; i <= end; i++) if (!isDigit(raw.charCodeAt(i))) return false;
  return true;
}

// lambdas/classification/normalize.ts
var metadata = nanp_metadata_max_default;
function analysisOf(parsed) {
  const valid = parsed.isValid();
  return { valid, e164: valid ? parsed.number : null, region: valid ? parsed.country ?? null : null, type: valid ? parsed.getType() ?? null : null };
}
var NATIONAL = /^[2-9]\d{9}$/;
var table = loadPrefixTable(nanp_prefixes_default);
var ANSWERS = table.classes.map(({ valid, region, type }) => ({
  valid,
  region,
  type,
  usCa: valid && (region === "US" || region === "CA") ? { region, type: type ?? "UNKNOWN" } : null
}));
var INVALID = Object.freeze({ valid: false, e164: null, region: null, type: null });
function e164Of(national) {
  const hi = Math.floor(national / 1e5);
  const lo = national - hi * 1e5;
  return String.fromCharCode(
    43,
    49,
    48 + Math.floor(hi / 1e4),
    48 + Math.floor(hi / 1e3) % 10,
    48 + Math.floor(hi / 100) % 10,
    48 + Math.floor(hi / 10) % 10,
    48 + hi % 10,
    48 + Math.floor(lo / 1e4),
    48 + Math.floor(lo / 1e3) % 10,
    48 + Math.floor(lo / 100) % 10,
    48 + Math.floor(lo / 10) % 10,
    48 + lo % 10
  );
}
var answerFor = (national) => ANSWERS[table.classOf(national)];
function slowPath(raw) {
  const parsed = parsePhoneNumberFromString2(raw, "US", metadata);
  if (!parsed) return INVALID;
  if (parsed.countryCallingCode === "1" && NATIONAL.test(parsed.nationalNumber)) return Number(parsed.nationalNumber);
  return analysisOf(parsed);
}
function analyze(raw) {
  let national = scanNanp(raw);
  if (national === NOT_READ) national = slowPath(raw);
  if (typeof national !== "number") return national;
  const a = answerFor(national);
  return a.valid ? { valid: true, e164: e164Of(national), region: a.region, type: a.type } : INVALID;
}
var normalizations = 0;
function normalizeUsCa(raw) {
  normalizations++;
  if (typeof raw !== "string" || raw.length > 256) return null;
  let national = scanNanp(raw);
  if (national === NOT_READ) national = slowPath(raw);
  if (typeof national !== "number") {
    const a = national;
    return a.valid && (a.region === "US" || a.region === "CA") ? { e164: a.e164, region: a.region, type: a.type ?? "UNKNOWN" } : null;
  }
  const usCa = answerFor(national).usCa;
  return usCa ? { e164: e164Of(national), region: usCa.region, type: usCa.type } : null;
}
function numberTypeOf(e164) {
  const a = analyze(e164);
  return a.valid && (a.region === "US" || a.region === "CA") ? a.type ?? "UNKNOWN" : void 0;
}

// lambdas/platform/config.ts
import * as z8 from "zod";
var int = (fallback2) => z8.coerce.number().int().nonnegative().default(fallback2);
var flag = z8.string().optional().transform((v) => v === "true");
var optional = z8.string().min(1).optional();
var ConfigSchema = z8.object({
  DEPLOYMENT: z8.enum(["aws", "local"]).optional(),
  AWS_LAMBDA_FUNCTION_NAME: optional,
  TABLE_NAME: optional,
  FILES_BUCKET: optional,
  SCREENSHOTS_BUCKET: optional,
  S3_FORCE_PATH_STYLE: flag,
  S3_LINK_ENDPOINT: optional,
  UPLOAD_STATE_MACHINE_ARN: optional,
  UPLOAD_CHUNK_SIZE: int(5e3),
  UPLOAD_PROCESSING_BOUND_MS: int(3 * 36e5),
  MAX_JSON_BODY_BYTES: int(50 * 1024 * 1024),
  CONTACT_MAX_QUEUE_AGE_MS: int(7 * 864e5),
  CONTACT_POOL_BATCH_PER_SHARD: int(2e3),
  RATE_LIMIT_PER_KEY: int(600),
  RATE_LIMIT_PER_ORG: int(1500),
  CURSOR_SECRET: optional,
  CURSOR_SECRET_ARN: optional,
  DOWNLOADS_SIGNING_PRIVATE_KEY: optional,
  DOWNLOADS_SIGNING_KEY_SECRET_ARN: optional,
  DOWNLOADS_CLOUDFRONT_DOMAIN: optional,
  DOWNLOADS_CLOUDFRONT_KEY_ID: optional,
  WEBHOOK_QUEUE_URL: optional,
  /** The customer-managed KMS key that seals webhook and callback signing secrets (AWS only). */
  SECRETS_KMS_KEY_ARN: optional,
  /** How long one delivery attempt is held before another worker may retry it (a dead worker's lapses). */
  WEBHOOK_ATTEMPT_LEASE_MS: int(6e4),
  WEBHOOKS_ALLOW_LOOPBACK: flag,
  CLASSIFICATION_PROVIDER: z8.enum(["offline", "simulator", "twilio"]).default("simulator"),
  TWILIO_ACCOUNT_SID: optional,
  TWILIO_AUTH_TOKEN: optional,
  TWILIO_SECRET_ARN: optional,
  TWILIO_LOOKUP_BASE_URL: optional,
  TWILIO_CONCURRENCY: optional,
  TWILIO_REQUESTS_PER_SECOND: optional,
  TWILIO_TIMEOUT_MS: optional,
  TWILIO_ATTEMPTS: optional,
  /** Above this share of an upload's numbers failing their provider lookup, the upload fails (and is refunded). */
  PROVIDER_FAILURE_MAX_SHARE: z8.coerce.number().min(0).max(1).default(0.1),
  CARRIER_TEST_PROVIDER: z8.enum(["simulator", "device-lab"]).default("simulator"),
  DEVICE_LAB_URL: z8.string().default(""),
  DEVICE_LAB_TOKEN: optional,
  DEVICE_LAB_TOKEN_SECRET_ARN: optional,
  DEVICE_LAB_POLL_INTERVAL_MS: int(5e3),
  DEVICE_LAB_MAX_POLLS: int(60),
  TELEPHONY_PROVIDER: z8.enum(["aws", "simulator"]).optional(),
  SMS_VOICE_ORIGINATION_IDENTITY: z8.string().default(""),
  SMS_VOICE_CONFIGURATION_SET: optional,
  SPAM_RUN_CONCURRENCY: int(4),
  /** The spam fan-out queue (AWS); without it the daily run tests its work items in-process. */
  SPAM_QUEUE_URL: optional,
  /** Tries per number-and-carrier test before it is recorded failed (a timeout or a thrown error). */
  SPAM_ITEM_ATTEMPTS: int(3),
  /** One carrier test longer than this counts as a failed attempt (a hung lab call stops only its item). */
  SPAM_TEST_TIMEOUT_MS: int(36e4),
  /** The carrier-test simulator waits this long per test, like a real call does. */
  SIMULATOR_CARRIER_TEST_DELAY_MS: int(0),
  POWERTOOLS_SERVICE_NAME: z8.string().default("phone-validation"),
  FAULT_CRASH_AT: optional
});
var ConfigError = class extends Error {
  constructor(issues) {
    super(`Invalid configuration: ${issues.join("; ")}`);
    this.issues = issues;
    this.name = "ConfigError";
  }
  issues;
};
function parseConfig(env) {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== void 0 && v !== ""));
  const parsed = ConfigSchema.safeParse(present);
  if (parsed.success) return parsed.data;
  throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message} (got '${String(present[String(issue.path[0])])}')`));
}
var current = null;
function config() {
  current ??= parseConfig(process.env);
  return current;
}
function reloadConfig() {
  current = parseConfig(process.env);
  return current;
}
function required(key4) {
  const value = config()[key4];
  if (value === void 0 || value === null || value === "") throw new ConfigError([`${String(key4)} is not set`]);
  return value;
}

// lambdas/classification/rules.ts
var ANSWER_INTENT_RULES = [
  { id: "non-mobile-range", when: { lineType: ["landline", "tollFree", "premium", "pager", "sharedCost", "fixedVoip", "personal"] }, then: "Non-Mobile", why: "landline, VoIP and special ranges: no mobile behaviour to predict" },
  { id: "disconnected", when: { lineStatus: ["inactive"] }, then: "Unknown", why: "the line is not in service: no call behaviour to predict" },
  { id: "unreachable", when: { lineType: ["mobile", "nonFixedVoip", "unknown"], lineStatus: ["unreachable"] }, then: "Likely Voicemail", why: "handset off or out of coverage: calls go to voicemail" },
  { id: "screening", when: { lineType: ["mobile", "nonFixedVoip"], callScreening: true }, then: "Likely Call Screening", why: "the carrier or handset screens unknown callers" },
  { id: "app-voip", when: { lineType: ["nonFixedVoip"] }, then: "Likely Call Screening", why: "app-based numbers mostly screen or forward" },
  { id: "mobile", when: { lineType: ["mobile"] }, then: "Likely Answer", why: "an active mobile line with no screening signal" },
  { id: "no-signal", when: {}, then: "Unknown", why: "nothing known about the line" }
];
function matches(rule, s) {
  const w = rule.when;
  if (w.lineType && !w.lineType.includes(s.lineType)) return false;
  if (w.lineStatus && (s.lineStatus === null || !w.lineStatus.includes(s.lineStatus))) return false;
  if (w.callScreening !== void 0 && s.callScreening !== w.callScreening) return false;
  return true;
}
function answerIntentOf(signals) {
  const rule = ANSWER_INTENT_RULES.find((r) => matches(r, signals));
  return { intent: rule.then, rule: rule.id };
}

// lambdas/classification/identity.ts
var NICKNAMES = {
  robert: ["bob", "rob", "bobby", "robbie", "bert"],
  elizabeth: ["liz", "beth", "betty", "eliza", "lizzie", "libby"],
  william: ["bill", "will", "billy", "liam"],
  richard: ["rick", "dick", "rich", "ricky"],
  margaret: ["maggie", "meg", "peggy", "marge"],
  katherine: ["kate", "kathy", "katie", "kat", "catherine", "kathryn"],
  james: ["jim", "jimmy", "jamie"],
  john: ["jack", "johnny"],
  joseph: ["joe", "joey"],
  michael: ["mike", "mikey"],
  thomas: ["tom", "tommy"],
  christopher: ["chris"],
  jennifer: ["jen", "jenny"],
  patricia: ["pat", "patty", "trish"],
  alexander: ["alex", "sasha"],
  daniel: ["dan", "danny"],
  anthony: ["tony"],
  edward: ["ed", "eddie", "ted"],
  susan: ["sue", "susie"],
  deborah: ["deb", "debbie"],
  nicholas: ["nick"],
  samuel: ["sam"],
  benjamin: ["ben"],
  steven: ["steve", "stephen"],
  charles: ["charlie", "chuck"]
};
var CANONICAL = /* @__PURE__ */ new Map();
for (const [name, nicks] of Object.entries(NICKNAMES)) {
  CANONICAL.set(name, name);
  for (const n of nicks) CANONICAL.set(n, name);
}
function nameTokens(name) {
  return name.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase().replace(/[^a-z\s-]/g, " ").split(/[\s-]+/).filter(Boolean);
}
var canonical = (token) => CANONICAL.get(token) ?? token;
function split(name) {
  if (name.first && name.last) return { first: nameTokens(name.first), last: nameTokens(name.last) };
  if (name.full) {
    if (name.full.includes(",")) {
      const [last, first] = name.full.split(",", 2);
      return { first: nameTokens(first ?? ""), last: nameTokens(last ?? "") };
    }
    const tokens = nameTokens(name.full);
    if (tokens.length === 0) return null;
    return tokens.length === 1 ? { first: [], last: tokens } : { first: tokens.slice(0, -1), last: tokens.slice(-1) };
  }
  return null;
}
function matchNames(supplied, subscriber) {
  const s = split(supplied);
  const theirs = nameTokens(subscriber);
  if (!s || theirs.length === 0) return "Unknown";
  const theirCanon = new Set(theirs.map(canonical));
  const lastHit = s.last.length > 0 && s.last.every((t) => theirs.includes(t));
  const firstToken = s.first[0];
  const firstExact = firstToken !== void 0 && theirs.includes(firstToken);
  const firstNick = firstToken !== void 0 && theirCanon.has(canonical(firstToken));
  const firstInitial = firstToken !== void 0 && (theirs.some((t) => t.length === 1 && t === firstToken[0]) || firstToken.length === 1 && theirs.some((t) => t.startsWith(firstToken)));
  if (lastHit && firstExact) return "Very High";
  if (lastHit && (firstNick || firstInitial)) return "High";
  if (lastHit) return "Medium";
  if (firstExact || firstNick) return "Low";
  return "Low";
}
function bandFromScore(score) {
  if (score >= 80) return "Very High";
  if (score >= 60) return "High";
  if (score >= 40) return "Medium";
  return "Low";
}
function identityOf(supplied, signals) {
  if (!supplied || !(supplied.full || supplied.first && supplied.last)) return null;
  if (signals.nameMatchScore !== null) return bandFromScore(signals.nameMatchScore);
  if (signals.callerName) return matchNames(supplied, signals.callerName);
  return "Unknown";
}

// lambdas/classification/signals.ts
function lineTypeFromStructure(type) {
  switch (type) {
    case "MOBILE":
      return "mobile";
    case "FIXED_LINE":
      return "landline";
    case "TOLL_FREE":
      return "tollFree";
    case "PREMIUM_RATE":
      return "premium";
    case "VOIP":
      return "fixedVoip";
    case "PERSONAL_NUMBER":
      return "personal";
    case "PAGER":
      return "pager";
    case "SHARED_COST":
      return "sharedCost";
    default:
      return "unknown";
  }
}

// lambdas/classification/offline-provider.ts
var offlineProvider = {
  name: "offline",
  simulated: false,
  async lookup(items) {
    return items.map((item) => ({
      lineType: lineTypeFromStructure(numberTypeOf(item.e164)),
      carrier: null,
      lineStatus: null,
      callScreening: null,
      callerName: null,
      nameMatchScore: null,
      simulated: false
    }));
  }
};

// lambdas/classification/simulator-provider.ts
import { createHash as createHash2 } from "node:crypto";
var RESERVED_OUTCOMES = {
  "0": { lineType: "mobile", lineStatus: "active", callScreening: false },
  // Likely Answer
  "1": { lineType: "mobile", lineStatus: "active", callScreening: true },
  // Likely Call Screening
  "2": { lineType: "mobile", lineStatus: "unreachable", callScreening: false },
  // Likely Voicemail
  "3": { lineType: "landline", lineStatus: "active", callScreening: null },
  // Non-Mobile
  "4": { lineType: "unknown", lineStatus: null, callScreening: null }
  // Unknown
};
var RESERVED_SCORES = [95, 70, 50, 10, null, null, null, null, null, null];
var CARRIERS2 = ["Verizon Wireless", "T-Mobile USA", "AT&T Wireless", "US Cellular", "Rogers", "Bell Mobility"];
var LINE_TYPES = ["mobile", "mobile", "mobile", "mobile", "landline", "nonFixedVoip", "fixedVoip", "unknown"];
function reservedOutcome(e164) {
  const m = /^\+1\d{3}555(01)(\d)(\d)$/.exec(e164);
  if (!m) return null;
  const outcome = RESERVED_OUTCOMES[m[2]];
  return outcome ? { outcome, score: RESERVED_SCORES[Number(m[3])] ?? null } : null;
}
var simulatorProvider = {
  name: "simulator",
  simulated: true,
  async lookup(items, opts) {
    const structure = await offlineProvider.lookup(items, opts);
    return items.map((item, i) => {
      const hasName = Boolean(item.name && (item.name.full || item.name.first && item.name.last));
      const reserved = reservedOutcome(item.e164);
      if (reserved) {
        return { ...reserved.outcome, carrier: "Simulated Wireless", callerName: null, nameMatchScore: hasName ? reserved.score : null, simulated: true };
      }
      const d = createHash2("sha256").update(item.e164).digest();
      const structural = structure[i].lineType;
      const lineType = structural !== "unknown" || opts.skipMobileLookup ? structural : LINE_TYPES[d[0] % LINE_TYPES.length];
      const statuses = ["active", "active", "active", "unreachable", "inactive"];
      return {
        lineType,
        carrier: lineType === "unknown" ? null : CARRIERS2[d[1] % CARRIERS2.length],
        lineStatus: opts.tier === "max" ? statuses[d[2] % statuses.length] : null,
        callScreening: d[3] % 4 === 0,
        callerName: null,
        nameMatchScore: hasName && d[4] % 5 !== 0 ? d[5] % 101 : null,
        simulated: true
      };
    });
  }
};

// lambdas/classification/twilio-provider.ts
import { GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";

// lambdas/classification/resilience.ts
async function mapConcurrent(items, limit, fn) {
  const out = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  });
  await Promise.all(workers);
  return out;
}
var RetryableError = class extends Error {
  constructor(message, retryAfterMs2 = null) {
    super(message);
    this.retryAfterMs = retryAfterMs2;
    this.name = "RetryableError";
  }
  retryAfterMs;
};
var defaultSleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function withRetries(fn, options) {
  const sleep6 = options.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (!(error instanceof RetryableError) || attempt >= options.attempts) throw error;
      const backoff = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
      await sleep6(error.retryAfterMs ?? backoff);
    }
  }
}
var RateLimiter = class {
  constructor(perSecond, sleep6 = defaultSleep) {
    this.perSecond = perSecond;
    this.sleep = sleep6;
  }
  perSecond;
  sleep;
  nextSlot = 0;
  async take() {
    const now2 = Date.now();
    const slot = Math.max(now2, this.nextSlot);
    this.nextSlot = slot + 1e3 / this.perSecond;
    if (slot > now2) await this.sleep(slot - now2);
  }
};

// lambdas/classification/twilio-provider.ts
var LINE_TYPES2 = {
  mobile: "mobile",
  landline: "landline",
  fixedVoip: "fixedVoip",
  nonFixedVoip: "nonFixedVoip",
  tollFree: "tollFree",
  premium: "premium",
  sharedCost: "sharedCost",
  personal: "personal",
  pager: "pager",
  uan: "landline",
  voicemail: "landline"
};
var STATUSES = { active: "active", inactive: "inactive", unreachable: "unreachable", unknown: "unknown" };
function createTwilioProvider(config2) {
  const limiter = config2.limiter ?? new RateLimiter(config2.requestsPerSecond);
  const auth = "Basic " + Buffer.from(`${config2.accountSid}:${config2.authToken}`).toString("base64");
  async function lookupOne(item, opts) {
    const fields = [...opts.skipMobileLookup ? [] : ["line_type_intelligence"], ...opts.tier === "max" ? ["line_status"] : [], ...item.name ? ["identity_match"] : []];
    const empty = { lineType: "unknown", carrier: null, lineStatus: null, callScreening: null, callerName: null, nameMatchScore: null, simulated: false };
    if (fields.length === 0) return empty;
    const url = new URL(`${config2.baseUrl.replace(/\/$/, "")}/v2/PhoneNumbers/${encodeURIComponent(item.e164)}`);
    url.searchParams.set("Fields", fields.join(","));
    if (item.name) {
      const [first, last] = item.name.first && item.name.last ? [item.name.first, item.name.last] : splitFull(item.name.full ?? "");
      if (first) url.searchParams.set("FirstName", first);
      if (last) url.searchParams.set("LastName", last);
    }
    let body;
    try {
      body = await lookupWithRetries(url);
    } catch (error) {
      if (error instanceof RetryableError) return { ...empty, lookupError: error.message };
      throw error;
    }
    if (!body || body.valid === false) return empty;
    const lti = body.line_type_intelligence;
    const score = body.identity_match?.summary_score;
    return {
      lineType: lti?.type ? LINE_TYPES2[lti.type] ?? "unknown" : "unknown",
      carrier: lti?.carrier_name ?? null,
      lineStatus: body.line_status?.status ? STATUSES[body.line_status.status] ?? "unknown" : null,
      callScreening: null,
      callerName: null,
      nameMatchScore: typeof score === "number" ? score : null,
      simulated: false
    };
  }
  function lookupWithRetries(url) {
    return withRetries(
      async () => {
        await limiter.take();
        let res;
        try {
          res = await fetch(url, { headers: { authorization: auth, accept: "application/json" }, signal: AbortSignal.timeout(config2.timeoutMs) });
        } catch (error) {
          throw new RetryableError(`Twilio Lookup unreachable: ${error.message}`);
        }
        if (res.status === 429 || res.status >= 500) {
          const retryAfter = Number(res.headers.get("retry-after"));
          throw new RetryableError(`Twilio Lookup answered ${res.status}`, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1e3 : null);
        }
        if (res.status === 404) return null;
        if (!res.ok) throw new Error(`Twilio Lookup answered ${res.status}: check TWILIO credentials and account (${(await res.text()).slice(0, 200)})`);
        return await res.json();
      },
      { attempts: config2.attempts, baseDelayMs: 250, maxDelayMs: 8e3 }
    );
  }
  return {
    name: "twilio",
    simulated: false,
    async lookup(items, opts) {
      return mapConcurrent(items, config2.concurrency, (item) => lookupOne(item, opts));
    }
  };
}
function splitFull(full) {
  const parts = full.trim().split(/\s+/);
  return parts.length > 1 ? [parts[0], parts[parts.length - 1]] : ["", parts[0] ?? ""];
}
async function createTwilioProviderFromEnv(env, secrets = new SecretsManagerClient({}), limiter) {
  let accountSid = env.TWILIO_ACCOUNT_SID;
  let authToken = env.TWILIO_AUTH_TOKEN;
  if ((!accountSid || !authToken) && env.TWILIO_SECRET_ARN) {
    const out = await secrets.send(new GetSecretValueCommand({ SecretId: env.TWILIO_SECRET_ARN }));
    const parsed = JSON.parse(out.SecretString ?? "{}");
    accountSid = parsed.account_sid;
    authToken = parsed.auth_token;
  }
  if (!accountSid || !authToken) throw new Error("twilio provider: set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN, or TWILIO_SECRET_ARN (JSON {account_sid, auth_token})");
  return createTwilioProvider({
    accountSid,
    authToken,
    baseUrl: env.TWILIO_LOOKUP_BASE_URL ?? "https://lookups.twilio.com",
    concurrency: Number(env.TWILIO_CONCURRENCY ?? 10),
    requestsPerSecond: Number(env.TWILIO_REQUESTS_PER_SECOND ?? 50),
    timeoutMs: Number(env.TWILIO_TIMEOUT_MS ?? 1e4),
    attempts: Number(env.TWILIO_ATTEMPTS ?? 4),
    limiter
  });
}

// lambdas/ratelimit/shared-limiter.ts
import { setTimeout as sleep } from "node:timers/promises";

// lambdas/ratelimit/bucket-repository.ts
import { GetCommand, UpdateCommand as UpdateCommand2 } from "@aws-sdk/lib-dynamodb";

// lambdas/platform/table.ts
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";

// lambdas/platform/table-entities.json
var table_entities_default = {
  ApiKey: {
    version: 1,
    pk: "APIKEY#<sha256(key)>",
    sk: "META",
    indexes: {
      gsi1: {
        pk: "ORG#<org>#KEYS",
        sk: "<created_at>#<key_id>"
      },
      gsi2: {
        pk: "APIKEYID#<key_id>",
        sk: "META"
      }
    }
  },
  Organization: {
    version: 1,
    pk: "ORG#<org>",
    sk: "META"
  },
  User: {
    version: 1,
    pk: "USER#<user>",
    sk: "META"
  },
  Membership: {
    version: 1,
    pk: "ORG#<org>",
    sk: "MEMBER#<user>",
    indexes: {
      gsi1: {
        pk: "USER#<user>#ORGS",
        sk: "<org>"
      }
    }
  },
  Balance: {
    version: 1,
    pk: "ORG#<org>",
    sk: "BALANCE",
    indexes: {
      gsi1: {
        pk: "BALANCES",
        sk: "<org>"
      }
    }
  },
  LedgerEntry: {
    version: 1,
    pk: "ORG#<org>",
    sk: "LEDGER#<change_id>",
    indexes: {
      gsi1: {
        pk: "ORG#<org>#LEDGER",
        sk: "<created_at>#<change_id>"
      }
    }
  },
  RateBucket: {
    version: 1,
    pk: "RATE#<scope>#<id>",
    sk: "BUCKET"
  },
  Upload: {
    version: 1,
    pk: "UPLOAD#<id>",
    sk: "META",
    indexes: {
      gsi1: {
        pk: "ORG#<org>#UPLOADS",
        sk: "<created_at>#<id>"
      },
      gsi2: {
        pk: "UPLOAD#WATCH",
        sk: "<stale_at>#<id>"
      }
    }
  },
  StagedUploadClaim: {
    version: 1,
    pk: "STAGED#<org>#<staged_upload_id>",
    sk: "CLAIM"
  },
  Contact: {
    version: 1,
    pk: "CONTACT#<id>",
    sk: "META",
    indexes: {
      gsi1: {
        pk: "ORG#<org>#CONTACTS",
        sk: "<created_at>#<id>"
      },
      gsi2: {
        pk: "ORG#<org>#CONTACTS#<status>",
        sk: "<created_at>#<id>"
      },
      gsi3: [
        {
          pk: "RECOVER#Contact",
          sk: "<stale_at>#<id>"
        },
        {
          pk: "CONTACTQ#<shard 0-7>",
          sk: "<created_at>#<id>"
        }
      ]
    }
  },
  IdempotencyKey: {
    version: 1,
    pk: "IDEMP#<org>#<key_id>#<sha256(idempotency_key)>",
    sk: "META"
  },
  ContactQueueEntry: {
    version: 1,
    pk: "CONTACTQ#<shard 0-7>",
    sk: "<created_at>#<contact_id>"
  },
  ContactBatch: {
    version: 1,
    pk: "ORG#<org>",
    sk: "CONTACTBATCH#max"
  },
  WebhookEndpoint: {
    version: 1,
    pk: "WEBHOOK#<id>",
    sk: "META",
    indexes: {
      gsi1: {
        pk: "ORG#<org>#WEBHOOKS",
        sk: "<created_at>#<id>"
      }
    }
  },
  WebhookDelivery: {
    version: 1,
    pk: "DELIVERY#<id>",
    sk: "META",
    indexes: {
      gsi1: {
        pk: "WEBHOOK#<id>#DELIVERIES",
        sk: "<created_at>#<id>"
      },
      gsi2: {
        pk: "DELIVERY#DUE",
        sk: "<next_attempt_at>#<id>"
      }
    }
  },
  Event: {
    version: 1,
    pk: "EVENT#<evt_id>",
    sk: "META",
    indexes: {
      gsi1: {
        pk: "ORG#<org>#EVENTS",
        sk: "<created_at>#<evt_id>"
      }
    }
  },
  MonitoredNumber: {
    version: 1,
    pk: "SPAMNUM#<id>",
    sk: "META",
    indexes: {
      gsi1: {
        pk: "ORG#<org>#SPAMNUMS",
        sk: "<created_at>#<id>"
      },
      gsi2: {
        pk: "SPAMNUM#VERIFIED",
        sk: "<created_at>#<id>"
      }
    }
  },
  SpamNumberCount: {
    version: 1,
    pk: "ORG#<org>",
    sk: "SPAMNUMS#COUNT"
  },
  SpamPhoneGuard: {
    version: 1,
    pk: "SPAMPHONE#<org>#<e164>",
    sk: "META"
  },
  SpamTestRun: {
    version: 1,
    pk: "SPAMNUM#<id>",
    sk: "RUN#<day>#<carrier>"
  },
  SpamScheduledRun: {
    version: 1,
    pk: "SPAMRUN#<day>",
    sk: "META"
  },
  SimulatedMessage: {
    version: 1,
    pk: "SIMOUTBOX#<to>",
    sk: "<sent_at>#<id>"
  },
  WebUploadDraft: {
    version: 1,
    pk: "WEBUPLOAD#<id>",
    sk: "META",
    indexes: {
      gsi1: {
        pk: "ORG#<org>#WEBUPLOADS",
        sk: "<created_at>#<id>"
      }
    }
  },
  Lease: {
    version: 1,
    pk: "LEASE#<name>",
    sk: "META"
  },
  LocalSeed: {
    version: 1,
    pk: "LOCAL#SEED",
    sk: "META"
  },
  LocalConsoleSeed: {
    version: 1,
    pk: "LOCAL#CONSOLE",
    sk: "META"
  }
};

// lambdas/platform/table-entities.ts
var ENTITIES = table_entities_default;
function stamp(entity) {
  return { entity, version: ENTITIES[entity].version };
}
function stampUpdate(entity) {
  return {
    set: "#entity = :entity, #version = :version",
    names: { "#entity": "entity", "#version": "version" },
    values: { ":entity": entity, ":version": ENTITIES[entity].version }
  };
}

// lambdas/platform/table.ts
var client = null;
function db() {
  if (!client) {
    client = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
      marshallOptions: { removeUndefinedValues: true }
    });
  }
  return client;
}
function tableName() {
  return required("TABLE_NAME");
}
function resetDb() {
  client = null;
}
function isConditionFailed(error) {
  return error instanceof ConditionalCheckFailedException || error instanceof Error && error.name === "ConditionalCheckFailedException";
}
function setClause(fields) {
  const names = {};
  const values = {};
  const sets = [];
  Object.entries(fields).filter(([, v]) => v !== void 0).forEach(([k, v], i) => {
    names[`#f${i}`] = k;
    values[`:f${i}`] = v;
    sets.push(`#f${i} = :f${i}`);
  });
  return { sets, names, values };
}
async function conditionalWrite(write) {
  try {
    await write();
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}
var IF_NEW = "attribute_not_exists(pk)";
async function putItem(entity, item, condition) {
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...item, ...stamp(entity) }, ...condition === void 0 ? {} : { ConditionExpression: condition } }));
}
function insertItem(entity, item) {
  return conditionalWrite(() => putItem(entity, item, IF_NEW));
}
function updateItem(input) {
  return conditionalWrite(() => db().send(new UpdateCommand({ ...input, TableName: tableName() })));
}
async function updateReturning(input) {
  try {
    const out = await db().send(new UpdateCommand({ ...input, TableName: tableName(), ReturnValues: "ALL_NEW" }));
    return out.Attributes ?? null;
  } catch (error) {
    if (isConditionFailed(error)) return null;
    throw error;
  }
}
async function* queryItems(input, max) {
  let startKey;
  let count = 0;
  do {
    const out = await db().send(
      new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey: startKey, ...max === void 0 ? {} : { Limit: Math.max(1, max - count) } })
    );
    for (const item of out.Items ?? []) {
      if (max !== void 0 && count >= max) return;
      count++;
      yield item;
    }
    startKey = out.LastEvaluatedKey;
  } while (startKey && (max === void 0 || count < max));
}

// lambdas/ratelimit/gcra.ts
var intervalMs = (shape) => (shape.windowMs ?? 6e4) / shape.limit;
var toleranceMs = (shape) => (shape.limit - 1) * intervalMs(shape);
function remainingAfter(shape, tat, now2) {
  return Math.max(0, Math.floor((now2 + toleranceMs(shape) + intervalMs(shape) - tat) / intervalMs(shape)));
}
function retryAfterMs(shape, tat, now2) {
  return Math.max(0, tat - toleranceMs(shape) - now2);
}
function resetAtUnix(tat, now2) {
  return Math.ceil(Math.max(tat, now2) / 1e3);
}
function allows(shape, tat, now2) {
  return tat === void 0 || tat - now2 <= toleranceMs(shape);
}

// lambdas/ratelimit/bucket-repository.ts
var BUCKET_STAMP = stampUpdate("RateBucket");
var bucketKey = (bucketId) => ({ pk: `RATE#${bucketId}`, sk: "BUCKET" });
var IDLE_TTL_S = 86400;
async function takeToken(bucketId, shape, now2) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const tat = await tryTake(bucketId, shape, now2);
    if (tat !== null) return tat;
    const current3 = await readTat(bucketId);
    if (current3 !== void 0 && current3 - now2 > toleranceMs(shape)) return null;
  }
  return null;
}
var lastTat = /* @__PURE__ */ new Map();
var MAX_REMEMBERED = 1e4;
function remember(bucketId, tat) {
  if (lastTat.size >= MAX_REMEMBERED && !lastTat.has(bucketId)) lastTat.clear();
  lastTat.set(bucketId, tat);
  return tat;
}
async function tryTake(bucketId, shape, now2) {
  const t = intervalMs(shape);
  const ttl = Math.ceil(now2 / 1e3) + IDLE_TTL_S;
  const spend = async () => {
    try {
      const out = await db().send(
        new UpdateCommand2({
          TableName: tableName(),
          Key: bucketKey(bucketId),
          UpdateExpression: "SET tat = tat + :t, #ttl = :ttl",
          ConditionExpression: "tat >= :now AND tat <= :limit",
          ExpressionAttributeNames: { "#ttl": "ttl" },
          ExpressionAttributeValues: { ":t": t, ":now": now2, ":limit": now2 + toleranceMs(shape), ":ttl": ttl },
          ReturnValues: "UPDATED_NEW"
        })
      );
      return remember(bucketId, Number(out.Attributes?.tat));
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      return null;
    }
  };
  const restart = async () => {
    try {
      await db().send(
        new UpdateCommand2({
          TableName: tableName(),
          Key: bucketKey(bucketId),
          UpdateExpression: `SET tat = :next, #ttl = :ttl, ${BUCKET_STAMP.set}`,
          ConditionExpression: "attribute_not_exists(tat) OR tat < :now",
          ExpressionAttributeNames: { "#ttl": "ttl", ...BUCKET_STAMP.names },
          ExpressionAttributeValues: { ":next": now2 + t, ":now": now2, ":ttl": ttl, ...BUCKET_STAMP.values }
        })
      );
      return remember(bucketId, now2 + t);
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      return null;
    }
  };
  const known = lastTat.get(bucketId);
  if (known !== void 0 && known < now2) return await restart() ?? await spend();
  return await spend() ?? await restart();
}
async function readTat(bucketId) {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: bucketKey(bucketId), ConsistentRead: true }));
  return out.Item?.tat === void 0 ? void 0 : Number(out.Item.tat);
}

// lambdas/ratelimit/shared-limiter.ts
function sharedRateLimiter(bucketId, perSecond) {
  const shape = { limit: Math.max(1, Math.floor(perSecond)), windowMs: 1e3 };
  return {
    async take() {
      for (; ; ) {
        const now2 = Date.now();
        if (await takeToken(bucketId, shape, now2) !== null) return;
        const tat = await readTat(bucketId) ?? now2;
        await sleep(Math.max(1, tat - toleranceMs(shape) - now2) + Math.random() * 10);
      }
    }
  };
}

// lambdas/classification/classify.ts
import { SecretsManagerClient as SecretsManagerClient2 } from "@aws-sdk/client-secrets-manager";
async function createProviderFromEnv(settings = config()) {
  const name = settings.CLASSIFICATION_PROVIDER;
  if (name === "offline") return offlineProvider;
  if (name === "simulator") return simulatorProvider;
  if (name === "twilio") {
    const { TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_SECRET_ARN, TWILIO_LOOKUP_BASE_URL, TWILIO_CONCURRENCY, TWILIO_REQUESTS_PER_SECOND, TWILIO_TIMEOUT_MS, TWILIO_ATTEMPTS } = settings;
    const limiter = settings.TABLE_NAME ? sharedRateLimiter("provider#twilio", Number(TWILIO_REQUESTS_PER_SECOND ?? 50)) : void 0;
    return createTwilioProviderFromEnv(
      { TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_SECRET_ARN, TWILIO_LOOKUP_BASE_URL, TWILIO_CONCURRENCY, TWILIO_REQUESTS_PER_SECOND, TWILIO_TIMEOUT_MS, TWILIO_ATTEMPTS },
      new SecretsManagerClient2({}),
      limiter
    );
  }
  throw new Error(`CLASSIFICATION_PROVIDER '${name}' is unknown: use offline, simulator or twilio`);
}
async function classifyBatch(provider, items, opts) {
  const signals = await provider.lookup(items, opts);
  return items.map((item, i) => {
    const s = signals[i];
    const answerIntent = answerIntentOf(s).intent;
    const identity = identityOf(item.name, s);
    return { e164: item.e164, answerIntent, identity, status: deriveStatus(answerIntent, identity), simulated: s.simulated, ...s.lookupError ? { lookupError: s.lookupError } : {} };
  });
}

// lambdas/uploads/plan.ts
var MIN_NUMBERS = 100;
var MAX_NUMBERS = 25e4;
var MAX_PHONE_COLUMNS = 10;
var priceOf = (validNumbers, tier) => tier === "max" ? Math.ceil(validNumbers * 1.5) : validNumbers;
function planUpload(header, rows, mapping, options = {}) {
  const planner = startPlan(header, rows, mapping, options);
  planner.validate(rows.length);
  return planner.finish();
}
async function planUploadInSteps(header, rows, mapping, options) {
  if (!(options.every >= 1)) throw new RangeError("every must be at least 1 row");
  const planner = startPlan(header, rows, mapping, options);
  for (let done = 0; done < rows.length; ) {
    done = Math.min(rows.length, done + options.every);
    planner.validate(done);
    if (done < rows.length) await options.progress(done);
  }
  return planner.finish();
}
function startPlan(header, rows, mapping, options) {
  const minimum = options.minimum ?? MIN_NUMBERS;
  if (rows.length > MAX_NUMBERS) throw new TooLarge(`At most ${MAX_NUMBERS} rows per upload; got ${rows.length}`);
  const index = (name, role) => {
    const positions = header.flatMap((h, i) => h.trim() === name ? [i] : []);
    if (positions.length === 0) throw new InvalidInput(`${role} '${name}' is not a column of the file; columns: ${header.map((h) => `'${h}'`).join(", ")}`);
    if (positions.length > 1) throw new InvalidInput(`${role} '${name}' names ${positions.length} columns of the file; column names must be unique`);
    return positions[0];
  };
  const phoneIdx = mapping.phoneColumns.map((c) => index(c, "phone column"));
  const fullIdx = mapping.fullNameColumn ? index(mapping.fullNameColumn, "full_name_column") : -1;
  const firstIdx = mapping.firstNameColumn ? index(mapping.firstNameColumn, "first_name_column") : -1;
  const lastIdx = mapping.lastNameColumn ? index(mapping.lastNameColumn, "last_name_column") : -1;
  const identity = fullIdx >= 0 || firstIdx >= 0 && lastIdx >= 0;
  const seen = /* @__PURE__ */ new Set();
  const work = new Array(rows.length);
  let validRows = 0;
  let invalid2 = 0;
  let next = 0;
  const validate = (upTo) => {
    for (let r = next; r < upTo; r++) {
      const fields = rows[r];
      if (fields.length > header.length) {
        throw new InvalidInput(`Row ${r + 2} has ${fields.length} fields but the header has ${header.length}; quote cells that contain commas`);
      }
      const numbers = new Array(phoneIdx.length);
      let any = false;
      for (let c = 0; c < phoneIdx.length; c++) {
        const cell = (fields[phoneIdx[c]] ?? "").trim();
        if (!cell) {
          numbers[c] = "";
          continue;
        }
        const normalized = normalizeUsCa(cell);
        if (!normalized) {
          invalid2++;
          numbers[c] = null;
          continue;
        }
        numbers[c] = normalized.e164;
        seen.add(normalized.e164);
        any = true;
      }
      if (any) validRows++;
      const row = { numbers };
      if (identity) {
        const full = fullIdx >= 0 ? (fields[fullIdx] ?? "").trim() : "";
        const first = firstIdx >= 0 ? (fields[firstIdx] ?? "").trim() : "";
        const last = lastIdx >= 0 ? (fields[lastIdx] ?? "").trim() : "";
        if (full) row.name = { full };
        else if (first && last) row.name = { first, last };
      }
      work[r] = row;
    }
    next = upTo;
  };
  const finish = () => {
    if (next !== rows.length) throw new Error(`plan finished after ${next} of ${rows.length} rows`);
    if (seen.size > MAX_NUMBERS) throw new TooLarge(`At most ${MAX_NUMBERS} numbers per upload; got ${seen.size}`);
    if (seen.size < minimum) {
      throw new TooFewNumbers({
        error: "min_contacts_required",
        min: MIN_NUMBERS,
        got: seen.size,
        message: `An upload needs at least ${MIN_NUMBERS} valid US/CA phone numbers; ${seen.size} remained after validation and de-duplication`
      });
    }
    return { rows: work, totalRows: rows.length, validRowCount: validRows, validNumberCount: seen.size, invalidCount: invalid2, identity };
  };
  return { validate, finish };
}

// lambdas/uploads/request.ts
var MAX_CSV_BYTES = 100 * 1024 * 1024;
var tierSchema = z9.enum(["standard", "max"], { error: "validation_tier must be standard or max" });
var column = z9.string().trim().min(1).max(256);
var JsonUploadBody = z9.object({
  filename: z9.string().min(1).max(255).optional(),
  skip_mobile_lookup: z9.boolean().optional(),
  validation_tier: tierSchema.optional(),
  phone_numbers: z9.array(z9.string({ error: "phone_numbers must be an array of strings" })).optional(),
  contacts: z9.array(z9.record(z9.string(), z9.unknown()), { error: "contacts must be an array of objects" }).optional(),
  phone_column: column.optional(),
  phone_columns: z9.array(column).optional(),
  full_name_column: column.optional(),
  first_name_column: column.optional(),
  last_name_column: column.optional(),
  staged_upload_id: z9.string().uuid().optional()
}).strict().meta({ id: "CreateUploadJson" });
function resolveMapping(raw) {
  const list = raw.phone_columns?.map((c) => c.trim()).filter(Boolean);
  if (!raw.phone_column && (!list || list.length === 0)) throw new InvalidInput("phone_column or phone_columns is required");
  if (list && list.length > MAX_PHONE_COLUMNS) throw new InvalidInput(`At most ${MAX_PHONE_COLUMNS} phone columns; got ${list.length}`);
  if (list && new Set(list).size !== list.length) throw new InvalidInput("phone_columns lists a column more than once");
  if (raw.phone_column && list && !list.includes(raw.phone_column)) throw new InvalidInput(`phone_column '${raw.phone_column}' is not among phone_columns`);
  if (Boolean(raw.first_name_column) !== Boolean(raw.last_name_column)) throw new InvalidInput("first_name_column and last_name_column must be given together");
  if (raw.full_name_column && raw.first_name_column) throw new InvalidInput("Use full_name_column, or first_name_column with last_name_column, not both");
  return {
    phoneColumns: list && list.length ? list : [raw.phone_column],
    fullNameColumn: raw.full_name_column,
    firstNameColumn: raw.first_name_column,
    lastNameColumn: raw.last_name_column
  };
}
function parseJsonUpload(body) {
  const hasNumbers = body.phone_numbers !== void 0;
  const hasContacts = body.contacts !== void 0;
  const common3 = { filename: body.filename ?? null, tier: body.validation_tier ?? "standard", skipMobileLookup: body.skip_mobile_lookup ?? false };
  if (body.staged_upload_id) {
    if (hasNumbers || hasContacts) throw new InvalidInput("staged_upload_id cannot be combined with phone_numbers or contacts");
    return { ...common3, csv: Buffer.alloc(0), mapping: resolveMapping(body), stagedUploadId: body.staged_upload_id };
  }
  if (hasNumbers === hasContacts) throw new InvalidInput("Send exactly one of phone_numbers or contacts");
  const count = (body.phone_numbers ?? body.contacts).length;
  if (count > MAX_NUMBERS) throw new TooLarge(`At most ${MAX_NUMBERS} entries per upload; got ${count}`);
  if (hasNumbers) {
    if (body.full_name_column || body.first_name_column || body.last_name_column) throw new InvalidInput("Name columns require contacts, not phone_numbers");
    if (body.phone_column || body.phone_columns) throw new InvalidInput("phone_column and phone_columns apply to contacts, not phone_numbers");
    const lines2 = ["phone", ...body.phone_numbers.map((n) => csvLine([n]))];
    return { ...common3, csv: Buffer.from(lines2.join("\n") + "\n"), mapping: { phoneColumns: ["phone"] } };
  }
  if (!body.phone_column) throw new InvalidInput("phone_column is required with contacts");
  const mapping = resolveMapping(body);
  const columns = [];
  const seen = /* @__PURE__ */ new Set();
  for (const contact of body.contacts) {
    for (const key4 of Object.keys(contact)) {
      if (seen.has(key4)) continue;
      seen.add(key4);
      columns.push(key4);
    }
  }
  const cell = (value) => value === null || value === void 0 ? "" : typeof value === "object" ? JSON.stringify(value) : String(value);
  const lines = [csvLine(columns), ...body.contacts.map((c) => csvLine(columns.map((k) => cell(c[k]))))];
  return { ...common3, csv: Buffer.from(lines.join("\n") + "\n"), mapping };
}
function parseStagedJsonUpload(call, document) {
  let raw;
  try {
    raw = JSON.parse(document.toString("utf8"));
  } catch (error) {
    throw new InvalidInput(`The staged file is not valid JSON: ${error.message}`);
  }
  const parsed = JsonUploadBody.safeParse(raw);
  if (!parsed.success) throw new InvalidInput(`The staged JSON file is not an upload body: ${describeZodError(parsed.error)}`);
  if (parsed.data.staged_upload_id) throw new InvalidInput("The staged JSON file cannot itself name a staged_upload_id");
  const { staged_upload_id: stagedUploadId, ...added } = call;
  const staged = parsed.data;
  for (const [field, value] of Object.entries(added)) {
    if (value !== void 0 && staged[field] !== void 0 && JSON.stringify(staged[field]) !== JSON.stringify(value)) {
      throw new InvalidInput(`${field} differs between the create call and the staged JSON file`);
    }
  }
  return { ...parseJsonUpload({ ...parsed.data, ...added }), stagedUploadId };
}
var MultipartFields = z9.object({
  phone_column: column.optional(),
  phone_columns: z9.string().optional(),
  skip_mobile_lookup: z9.enum(["true", "false", "1", "0"], { error: "skip_mobile_lookup must be true or false" }).optional(),
  validation_tier: tierSchema.optional(),
  filename_override: z9.string().min(1).max(255).optional(),
  full_name_column: column.optional(),
  first_name_column: column.optional(),
  last_name_column: column.optional()
});
async function parseMultipartUpload(body, contentType) {
  const { fields, file, filename } = await readMultipart(body, contentType);
  if (!file) throw new InvalidInput("The multipart body has no 'file' part");
  const parsed = MultipartFields.safeParse(fields);
  if (!parsed.success) throw new InvalidInput(`Invalid form fields: ${describeZodError(parsed.error)}`);
  const f2 = parsed.data;
  const mapping = resolveMapping({
    phone_column: f2.phone_column,
    phone_columns: f2.phone_columns?.split(","),
    full_name_column: f2.full_name_column,
    first_name_column: f2.first_name_column,
    last_name_column: f2.last_name_column
  });
  return {
    csv: file,
    filename: f2.filename_override ?? filename,
    mapping,
    tier: f2.validation_tier ?? "standard",
    skipMobileLookup: f2.skip_mobile_lookup === "true" || f2.skip_mobile_lookup === "1"
  };
}
function readMultipart(body, contentType) {
  return new Promise((resolve3, reject) => {
    let parser;
    try {
      parser = Busboy({ headers: { "content-type": contentType }, limits: { fileSize: MAX_CSV_BYTES, files: 1, fields: 20, fieldSize: 64 * 1024 } });
    } catch (error) {
      reject(new InvalidInput(`Malformed multipart body: ${error.message}`));
      return;
    }
    const fields = {};
    let file = null;
    let filename = null;
    let tooLarge2 = false;
    let failed2 = false;
    const malformed = (error) => {
      if (failed2) return;
      failed2 = true;
      reject(new InvalidInput(`Malformed multipart body: ${error.message}; send each part complete, followed by the closing boundary`));
    };
    parser.on("field", (name, value) => {
      fields[name] = value;
    });
    parser.on("file", (name, stream, info) => {
      stream.on("error", malformed);
      if (name !== "file") {
        stream.resume();
        return;
      }
      const chunks = [];
      filename = info.filename || null;
      stream.on("data", (chunk) => chunks.push(chunk));
      stream.on("limit", () => {
        tooLarge2 = true;
      });
      stream.on("end", () => {
        file = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      });
    });
    parser.on("error", malformed);
    parser.on("close", () => {
      if (failed2) return;
      if (tooLarge2) reject(new TooLarge(`The CSV file exceeds ${MAX_CSV_BYTES} bytes (100 MB)`));
      else resolve3({ fields, file, filename });
    });
    parser.end(body);
  });
}

// lambdas/uploads/routes.ts
var DEFAULT_PAGE_SIZE = 20;
var ResultSummary = z10.object({
  format: z10.enum(["identity", "answer_intent"]),
  total_rows: z10.number().int(),
  status_counts: z10.record(z10.string(), z10.number().int()),
  identity_counts: z10.record(z10.string(), z10.number().int()),
  has_answer_intent_column: z10.boolean(),
  has_identity_column: z10.boolean(),
  simulated: z10.boolean().describe("true when the results came from the simulator provider (development data, not real signals)")
});
var Upload = z10.object({
  id: z10.string().uuid(),
  user_id: z10.string().uuid(),
  organization_id: z10.string().uuid().nullable(),
  original_filename: z10.string(),
  file_size_bytes: z10.number().int().nullable(),
  status: z10.enum(["pending_mapping", "validating", "validation_failed", "awaiting_confirmation", "ready_for_processing", "processing", "completed", "failed", "cancelled"]),
  valid_row_count: z10.number().int().nullable(),
  valid_number_count: z10.number().int().nullable(),
  invalid_row_count: z10.number().int().nullable(),
  credits_required: z10.number().int().nullable(),
  credits_charged: z10.number().int().nullable(),
  credits_refunded: z10.number().int().nullable(),
  source: z10.enum(["web", "api", "api_pool"]).nullable(),
  api_key_id: z10.string().nullable(),
  skip_mobile_lookup: z10.boolean().nullable(),
  validation_tier: z10.enum(["standard", "max"]).nullable(),
  identity_enabled: z10.boolean().nullable(),
  result_summary: ResultSummary.nullable(),
  export_count: z10.number().int(),
  last_exported_at: z10.string().nullable(),
  processed_available: z10.boolean(),
  processed_filtered_available: z10.boolean(),
  error_message: z10.string().nullable(),
  exceeded_daily_limit: z10.boolean().nullable(),
  created_at: z10.string(),
  updated_at: z10.string()
}).meta({ id: "Upload" });
var DownloadLink = z10.object({ url: z10.string().describe("signed GET link"), expires_at: z10.number().int().describe("Unix seconds; the link answers 403 after it") }).meta({ id: "DownloadLink" });
var f = MultipartFields.shape;
var MultipartUploadForm = z10.object({
  file: z10.string().meta({ contentMediaType: "text/csv", description: "The CSV file, with a header row. A request passes API Gateway (10 MB) and a Lambda event (6 MB, this body base64 encoded), so a file over about 4.4 MB gets a 413: stage it with POST /api/v1/uploads/staging (up to 100 MB)" }),
  phone_column: f.phone_column.describe("Name of the phone column (one of phone_column / phone_columns is required)"),
  phone_columns: f.phone_columns.describe("Comma-separated names of up to 10 phone columns; when phone_column is given too it must be among them"),
  skip_mobile_lookup: f.skip_mobile_lookup.describe("Skip the paid line-type lookup (true or false, also 1 or 0); default false"),
  validation_tier: f.validation_tier.describe("standard (1 credit per number) or max (ceil(n \xD7 1.5)); default standard"),
  filename_override: f.filename_override.describe("Used as original_filename instead of the file part\u2019s own name"),
  full_name_column: f.full_name_column.describe("Column holding the full name; enables Identity (use this OR first_name_column with last_name_column)"),
  first_name_column: f.first_name_column.describe("Column holding the first name; with last_name_column enables Identity"),
  last_name_column: f.last_name_column.describe("Column holding the last name; with first_name_column enables Identity")
}).meta({ id: "CreateUploadMultipart", description: "multipart/form-data fields of POST /api/v1/uploads" });
var IdParams2 = byIdParams("id", "Upload not found", "id of an upload of the key\u2019s organization");
var notFound = { 404: { description: "Unknown or another organization\u2019s upload", schema: ErrorEnvelope } };
function download(name, operationId, summary, query) {
  return {
    method: "GET",
    path: `/api/v1/uploads/{id}/download/${name}`,
    fn: "uploads",
    operationId,
    summary,
    tags: ["uploads"],
    scope: "uploads:read",
    request: { params: IdParams2, ...query ? { query } : {} },
    responses: {
      200: { description: "A link valid for one hour", schema: DownloadLink },
      400: { description: "Unrecognized status or other invalid parameter", schema: ErrorEnvelope },
      409: { description: "The file is not available yet (processing not completed)", schema: ErrorEnvelope },
      ...notFound,
      ...authErrors
    }
  };
}
var uploadsRoutes = {
  create: {
    method: "POST",
    path: "/api/v1/uploads",
    fn: "uploads",
    operationId: "createUpload",
    summary: "Create an upload from a CSV (multipart), a JSON list, or a staged object",
    tags: ["uploads"],
    scope: "uploads:write",
    rateLimited: true,
    subscription: true,
    request: { body: JsonUploadBody, contentTypes: ["multipart/form-data", "application/json"], forms: { "multipart/form-data": MultipartUploadForm } },
    responses: {
      200: { description: "Upload created in ready_for_processing; credits charged", schema: Upload },
      400: { description: "Malformed input or violated constraint", schema: ErrorEnvelope },
      402: { description: "Insufficient credits", schema: ErrorEnvelope },
      403: { description: "No active subscription", schema: ErrorEnvelope },
      409: { description: "staged_upload_id already used: a staged file makes one upload; nothing charged", schema: ErrorEnvelope },
      413: { description: "CSV over 100 MB, or over 250,000 entries", schema: ErrorEnvelope },
      415: { description: "Content-Type other than multipart/form-data or application/json", schema: ErrorEnvelope },
      422: { description: "Fewer than 100 valid numbers (min_contacts_required)", schema: ErrorEnvelope },
      ...authErrors,
      ...rateLimitErrors
    }
  },
  stage: {
    method: "POST",
    path: "/api/v1/uploads/staging",
    fn: "uploads",
    operationId: "stageUpload",
    summary: "Get a presigned POST for a large CSV or JSON body (up to 100 MB); then create the upload with staged_upload_id",
    tags: ["uploads"],
    scope: "uploads:write",
    rateLimited: true,
    subscription: true,
    request: {
      query: z10.object({
        format: z10.enum(["csv", "json"], { error: "format must be csv or json" }).default("csv").describe("csv: the file is a CSV (the create call gives the mapping); json: the file is a JSON create body (phone_numbers or contacts)")
      })
    },
    responses: {
      200: {
        description: "Where and how to POST the file",
        schema: z10.object({ staged_upload_id: z10.string().uuid(), format: z10.enum(["csv", "json"]), url: z10.string(), fields: z10.record(z10.string(), z10.string()), expires_at: z10.number().int(), max_bytes: z10.number().int() })
      },
      400: { description: "Invalid query", schema: ErrorEnvelope },
      ...authErrors,
      ...rateLimitErrors
    }
  },
  list: {
    method: "GET",
    path: "/api/v1/uploads",
    fn: "uploads",
    operationId: "listUploads",
    summary: "List uploads, newest first",
    tags: ["uploads"],
    scope: "uploads:read",
    request: { query: z10.object({ limit: z10.coerce.number().int().min(1).max(100).default(DEFAULT_PAGE_SIZE), cursor: z10.string().max(2048).optional() }) },
    responses: { 200: { description: "A page", schema: z10.object({ data: z10.array(Upload), next_cursor: z10.string().nullable() }) }, 400: { description: "Invalid query", schema: ErrorEnvelope }, ...authErrors }
  },
  get: {
    method: "GET",
    path: "/api/v1/uploads/{id}",
    fn: "uploads",
    operationId: "getUpload",
    summary: "One upload",
    tags: ["uploads"],
    scope: "uploads:read",
    request: { params: IdParams2 },
    responses: { 200: { description: "Upload", schema: Upload }, ...notFound, ...authErrors }
  },
  remove: {
    method: "DELETE",
    path: "/api/v1/uploads/{id}",
    fn: "uploads",
    operationId: "deleteUpload",
    summary: "Removed: always 410 Gone, changes nothing",
    tags: ["uploads"],
    rateLimited: true,
    // Any value, UUID or not: the answer is always 410 (spec), so the id is not validated.
    request: { params: z10.object({ id: z10.string().describe("any upload id; the answer is always 410") }) },
    responses: { 410: { description: "Gone", schema: ErrorEnvelope }, ...authErrors }
  },
  downloadOriginal: download("original", "downloadOriginal", "Signed link to the original file"),
  downloadProcessed: download(
    "processed",
    "downloadProcessed",
    "Signed link to the processed file, or to a slice of it",
    z10.object({
      statuses: z10.string().max(2e3).optional().describe("comma-separated statuses from the vocabulary of result_summary.format"),
      include_identity: z10.enum(["true", "false"]).optional(),
      sort: z10.enum(["best_status", "original"]).optional().describe("best_status ranks each contact by its best number"),
      neutralize_formulas: z10.enum(["true", "false"]).optional().describe(
        `true: the customer's cells that start with = + - @, tab or CR are written as OWASP recommends against CSV injection: prefixed with a single quote and quoted (so +12125550143 becomes "'+12125550143"). Default false: the customer's cells are kept exactly; the service's own cells are always safe`
      )
    })
  ),
  downloadProcessedFiltered: download("processed-filtered", "downloadProcessedFiltered", "Deprecated: the fixed reachable slice")
};

// lambdas/api/routes.ts
var ROUTES = [...Object.values(platformRoutes), ...Object.values(creditsRoutes), ...Object.values(webhooksRoutes), ...Object.values(spamRoutes), ...Object.values(contactsV1Routes), ...Object.values(contactsV2Routes), ...Object.values(uploadsRoutes)];

// lambdas/platform/blob.ts
import { GetObjectCommand, HeadObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
var client2 = null;
function s3() {
  client2 ??= new S3Client({ forcePathStyle: config().S3_FORCE_PATH_STYLE });
  return client2;
}
var linkClient = null;
function linkSigner() {
  const endpoint = config().S3_LINK_ENDPOINT;
  if (!endpoint) return s3();
  linkClient ??= new S3Client({ endpoint, forcePathStyle: config().S3_FORCE_PATH_STYLE });
  return linkClient;
}
function resetS3() {
  client2 = null;
  linkClient = null;
}
function filesBucket() {
  const name = config().FILES_BUCKET;
  if (!name) throw new Error("FILES_BUCKET is not set");
  return name;
}
async function putObject(bucket2, key4, body, contentType) {
  await s3().send(new PutObjectCommand({ Bucket: bucket2, Key: key4, Body: body, ContentType: contentType }));
}
async function getObject(bucket2, key4) {
  try {
    const out = await s3().send(new GetObjectCommand({ Bucket: bucket2, Key: key4 }));
    if (!out.Body) return null;
    return await readBody(out.Body, out.ContentLength);
  } catch (error) {
    if (error instanceof NoSuchKey || error.name === "NoSuchKey" || error.name === "NotFound") return null;
    throw error;
  }
}
async function readBody(body, length) {
  if (length === void 0) {
    const chunks = [];
    for await (const chunk of body) chunks.push(chunk);
    return Buffer.concat(chunks);
  }
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  for await (const chunk of body) {
    if (at + chunk.length > length) throw new Error(`object body is longer than its Content-Length ${length}`);
    out.set(chunk, at);
    at += chunk.length;
  }
  if (at !== length) throw new Error(`object body ended at ${at} of ${length} bytes`);
  return out;
}
async function objectExists(bucket2, key4) {
  try {
    await s3().send(new HeadObjectCommand({ Bucket: bucket2, Key: key4 }));
    return true;
  } catch (error) {
    const e2 = error;
    if (e2.name === "NotFound" || e2.name === "NoSuchKey" || e2.$metadata?.httpStatusCode === 404) return false;
    throw error;
  }
}
async function presignGet(bucket2, key4, seconds, contentDisposition) {
  return getSignedUrl(
    linkSigner(),
    new GetObjectCommand({ Bucket: bucket2, Key: key4, ResponseContentDisposition: contentDisposition }),
    { expiresIn: seconds }
  );
}

// lambdas/platform/cursor.ts
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes as randomBytes2 } from "node:crypto";
import { GetSecretValueCommand as GetSecretValueCommand2, SecretsManagerClient as SecretsManagerClient3 } from "@aws-sdk/client-secrets-manager";
var VERSION = 1;
var IV_BYTES = 12;
var TAG_BYTES = 16;
var INVALID2 = "Invalid cursor: pass next_cursor from the previous page of the same list, with the same filters, unchanged";
var invalidCursor = () => new InvalidInput(INVALID2);
var key = null;
function resetCursorKey() {
  key = null;
}
function cursorKey() {
  key ??= loadSecret().then((secret) => Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), "pagination-cursor/v1", 32)));
  key.catch(() => key = null);
  return key;
}
async function loadSecret() {
  const direct = config().CURSOR_SECRET;
  if (direct) {
    if (direct.length < 32) throw new Error("CURSOR_SECRET must be at least 32 characters");
    return direct;
  }
  const arn = config().CURSOR_SECRET_ARN;
  if (arn) {
    const out = await new SecretsManagerClient3({}).send(new GetSecretValueCommand2({ SecretId: arn }));
    if (!out.SecretString || out.SecretString.length < 32) throw new Error(`secret ${arn} must hold at least 32 characters`);
    return out.SecretString;
  }
  if (config().AWS_LAMBDA_FUNCTION_NAME || config().DEPLOYMENT === "aws") {
    throw new Error("Neither CURSOR_SECRET nor CURSOR_SECRET_ARN is set: pagination cursors cannot be issued or checked");
  }
  return randomBytes2(32);
}
function cursorScope(list, organizationId, filters = {}) {
  const parts = Object.keys(filters).sort().map((name) => `${name}=${filters[name] ?? "*"}`);
  return JSON.stringify([list, organizationId, ...parts]);
}
async function encodeCursor(scope, position) {
  const iv = randomBytes2(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", await cursorKey(), iv);
  cipher.setAAD(Buffer.from(scope, "utf8"));
  const body = Buffer.concat([cipher.update(JSON.stringify(position), "utf8"), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, body, cipher.getAuthTag()]).toString("base64url");
}
async function decodeCursor(scope, cursor) {
  const bytes = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, "base64url") : Buffer.alloc(0);
  if (bytes.length < 1 + IV_BYTES + TAG_BYTES + 2 || bytes[0] !== VERSION) throw invalidCursor();
  const iv = bytes.subarray(1, 1 + IV_BYTES);
  const tag = bytes.subarray(bytes.length - TAG_BYTES);
  const body = bytes.subarray(1 + IV_BYTES, bytes.length - TAG_BYTES);
  const secretKey = await cursorKey();
  let text;
  try {
    const decipher = createDecipheriv("aes-256-gcm", secretKey, iv);
    decipher.setAAD(Buffer.from(scope, "utf8"));
    decipher.setAuthTag(tag);
    text = Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
  } catch {
    throw invalidCursor();
  }
  const value = JSON.parse(text);
  if (!value || typeof value !== "object" || Array.isArray(value) || !Object.values(value).every((v) => typeof v === "string")) throw invalidCursor();
  return value;
}

// local/key-file.ts
import { randomBytes as randomBytes3 } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
function keyFileIn(dataDir2, name) {
  const file = join(dataDir2, name);
  const existing = readKey(file);
  if (existing) return existing;
  mkdirSync(dataDir2, { recursive: true });
  try {
    writeFileSync(file, `${randomBytes3(32).toString("hex")}
`, { mode: 384, flag: "wx" });
  } catch (error) {
    if (error.code !== "EEXIST") throw error;
  }
  const created2 = readKey(file);
  if (!created2) throw new Error(`${file} must hold at least 32 characters; delete it to have a new one generated`);
  return created2;
}
function readKey(file) {
  try {
    const key4 = readFileSync(file, "utf8").trim();
    return key4.length >= 32 ? key4 : null;
  } catch {
    return null;
  }
}

// local/cursor-secret.ts
var localCursorSecret = (dataDir2) => keyFileIn(dataDir2, "cursor-secret");

// local/api-gateway-server.ts
import { createServer } from "node:http";
import { randomUUID as randomUUID2 } from "node:crypto";

// lambdas/platform/http/match.ts
function matchRoute(routes2, method, path) {
  let pathExists = false;
  for (const route2 of routes2) {
    const params = matchPath(route2.path, path);
    if (!params) continue;
    pathExists = true;
    if (route2.method === method) return { match: { route: route2, params }, pathExists };
  }
  return { match: null, pathExists };
}
function matchPath(template, path) {
  const t = template.split("/");
  const p = path.replace(/\/+$/, "").split("/");
  if (t.length !== p.length) return null;
  const params = {};
  for (let i = 0; i < t.length; i++) {
    const seg = t[i];
    const value = p[i];
    if (seg.startsWith("{") && seg.endsWith("}")) {
      if (!value) return null;
      try {
        params[seg.slice(1, -1)] = decodeURIComponent(value);
      } catch {
        return null;
      }
    } else if (seg !== value) {
      return null;
    }
  }
  return params;
}

// lambdas/platform/http/route-spec.ts
var routeKey = (route2) => `${route2.method} ${route2.path}`;

// lambdas/platform/http/content-type.ts
function mediaType(header) {
  return (header ?? "").split(";")[0].trim().toLowerCase();
}
var isJsonMediaType = (type) => type === "application/json" || type.endsWith("+json");

// lambdas/platform/http/raw-body.ts
var attached = /* @__PURE__ */ new WeakMap();
function attachRawBody(event, bytes) {
  attached.set(event, bytes);
}
function rawBodyOf(event) {
  const bytes = attached.get(event);
  if (bytes) return bytes;
  return event.body ? Buffer.from(event.body, event.isBase64Encoded ? "base64" : "utf8") : Buffer.alloc(0);
}

// lambdas/platform/logger.ts
import { AsyncLocalStorage } from "node:async_hooks";
import { Logger } from "@aws-lambda-powertools/logger";
var base = new Logger({ serviceName: config().POWERTOOLS_SERVICE_NAME });
var contexts = new AsyncLocalStorage();
var current2 = () => contexts.getStore() ?? base;
function withLogContext(fn) {
  return contexts.run(base.createChild(), fn);
}
var logger = {
  debug: (input, ...extra) => current2().debug(input, ...extra),
  info: (input, ...extra) => current2().info(input, ...extra),
  warn: (input, ...extra) => current2().warn(input, ...extra),
  error: (input, ...extra) => current2().error(input, ...extra),
  appendKeys: (...args) => current2().appendKeys(...args),
  resetKeys: () => current2().resetKeys(),
  /** Changes the level of the base logger and of contexts created afterwards. */
  setLogLevel: (...args) => base.setLogLevel(...args)
};

// local/byte-budget.ts
var ByteBudget = class {
  constructor(capacity) {
    this.capacity = capacity;
    if (!(capacity > 0)) throw new Error(`A byte budget must be positive; got ${capacity}`);
  }
  capacity;
  used = 0;
  waiting = [];
  /** Resolves with a release function once `bytes` fit. */
  async acquire(bytes) {
    const need = Math.min(Math.max(0, bytes), this.capacity);
    if (need === 0) return () => void 0;
    if (this.waiting.length === 0 && this.used + need <= this.capacity) this.used += need;
    else await new Promise((grant) => this.waiting.push({ bytes: need, grant }));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= need;
      this.grantWaiting();
    };
  }
  get inUse() {
    return this.used;
  }
  grantWaiting() {
    while (this.waiting.length && this.used + this.waiting[0].bytes <= this.capacity) {
      const next = this.waiting.shift();
      this.used += next.bytes;
      next.grant();
    }
  }
};

// local/api-gateway-server.ts
var AWS_LIMITS = {
  /** API Gateway HTTP API: request body, 10 MB. */
  httpApiBodyBytes: 10 * 1024 * 1024,
  /** Lambda: synchronous invocation payload (the whole event), 6 MB. */
  lambdaPayloadBytes: 6 * 1024 * 1024
};
var STAGING_HINT = 'send large files through POST /api/v1/uploads/staging (a presigned S3 POST, up to 100 MB; CSV, or JSON with ?format=json), then create the upload with {"staged_upload_id": \u2026} (docs/uploads.md)';
var LOCAL_API_TIMEOUT_DEFAULTS = { requestTimeoutMs: 3e5, headersTimeoutMs: 6e4, keepAliveTimeoutMs: 5e3 };
async function startLocalApi(options) {
  const requestTimeout = options.requestTimeoutMs ?? LOCAL_API_TIMEOUT_DEFAULTS.requestTimeoutMs;
  const budget = new ByteBudget(options.maxInFlightBodyBytes ?? 2 * options.maxBodyBytes);
  const server = createServer(
    {
      requestTimeout,
      headersTimeout: Math.min(options.headersTimeoutMs ?? LOCAL_API_TIMEOUT_DEFAULTS.headersTimeoutMs, requestTimeout),
      keepAliveTimeout: options.keepAliveTimeoutMs ?? LOCAL_API_TIMEOUT_DEFAULTS.keepAliveTimeoutMs,
      // Node checks the two timeouts above on this interval (30 s by default): check often enough
      // that a short configured timeout is enforced close to its value.
      connectionsCheckingInterval: Math.max(50, Math.min(3e4, Math.floor(requestTimeout / 4)))
    },
    (req, res) => {
      handle(options, budget, req, res).catch((error) => {
        if (req.destroyed && !req.complete) return;
        console.error("local api: unhandled", error);
        if (!res.headersSent) send(res, { statusCode: 500, body: JSON.stringify({ detail: "Internal server error" }) });
      });
    }
  );
  await new Promise((resolve3, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve3());
  });
  const address = server.address();
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${address.port}`,
    server,
    close: () => new Promise((resolve3) => {
      server.closeAllConnections();
      server.close(() => resolve3());
    })
  };
}
async function handle(options, budget, req, res) {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > options.maxBodyBytes) {
    req.resume();
    return send(res, tooLarge(`Request body of ${declared} bytes exceeds API Gateway's limit of ${options.maxBodyBytes} bytes`));
  }
  const chunked = req.headers["content-length"] === void 0 && req.headers["transfer-encoding"] !== void 0;
  const release = await budget.acquire(chunked ? options.maxBodyBytes : declared);
  try {
    await respond(options, req, res);
  } finally {
    release();
  }
}
async function respond(options, req, res) {
  const url = new URL(req.url ?? "/", "http://local");
  const method = (req.method ?? "GET").toUpperCase();
  if (options.prelude && await options.prelude(req, res, url)) return;
  const body = await readBody2(req, options.maxBodyBytes);
  if (!body) return send(res, tooLarge(`Request body exceeds API Gateway's limit of ${options.maxBodyBytes} bytes`));
  const { match } = matchRoute(options.routes, method, url.pathname);
  const fn = match ? match.route.fn : "platform";
  const event = toEvent(req, method, url, body, match ? routeKey(match.route) : "$default", match?.params);
  const maxPayload = options.maxPayloadBytes ?? AWS_LIMITS.lambdaPayloadBytes;
  const payload = eventPayloadBytes(event, body);
  if (payload > maxPayload) {
    const encoding = event.isBase64Encoded ? ` (the ${body.length}-byte body is binary, so it is sent base64 encoded, 4/3 of its size)` : "";
    return send(res, tooLarge(`Request too large for a Lambda function: its event would be ${payload} bytes${encoding}, over the ${maxPayload}-byte synchronous payload limit`));
  }
  const context = { awsRequestId: event.requestContext.requestId, functionName: `local-${fn}` };
  const result = await withLogContext(() => options.functions[fn](event, context));
  send(res, result);
}
async function readBody2(req, max) {
  const declared = req.headers["content-length"] === void 0 ? null : Number(req.headers["content-length"]);
  if (declared !== null && Number.isSafeInteger(declared)) {
    const body = Buffer.allocUnsafe(declared);
    let offset = 0;
    for await (const chunk of req) offset += chunk.copy(body, offset);
    return offset === declared ? body : body.subarray(0, offset);
  }
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > max) {
      req.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
}
function toEvent(req, method, url, body, key4, params) {
  const headers2 = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== void 0) headers2[k] = Array.isArray(v) ? v.join(",") : v;
  headers2["x-forwarded-proto"] ??= "http";
  const query = {};
  for (const [k, v] of url.searchParams) query[k] = query[k] === void 0 ? v : `${query[k]},${v}`;
  const type = mediaType(headers2["content-type"]);
  const isText = type.startsWith("text/") || isJsonMediaType(type) || type === "application/x-www-form-urlencoded";
  const now2 = /* @__PURE__ */ new Date();
  const event = {
    version: "2.0",
    routeKey: key4,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers: headers2,
    queryStringParameters: Object.keys(query).length ? query : void 0,
    pathParameters: params && Object.keys(params).length ? params : void 0,
    isBase64Encoded: body.length > 0 && !isText,
    requestContext: {
      accountId: "local",
      apiId: "local",
      domainName: headers2.host ?? "localhost",
      domainPrefix: "local",
      http: { method, path: url.pathname, protocol: "HTTP/1.1", sourceIp: req.socket.remoteAddress ?? "127.0.0.1", userAgent: headers2["user-agent"] ?? "" },
      requestId: randomUUID2(),
      routeKey: key4,
      stage: "$default",
      time: now2.toUTCString(),
      timeEpoch: now2.getTime()
    }
  };
  let text;
  Object.defineProperty(event, "body", {
    enumerable: true,
    configurable: true,
    get: () => body.length ? text ??= isText ? body.toString("utf8") : body.toString("base64") : void 0
  });
  attachRawBody(event, body);
  return event;
}
function eventPayloadBytes(event, body) {
  const { body: _body, ...rest } = event;
  const envelope = Buffer.byteLength(JSON.stringify(rest)) + 10;
  if (!body.length) return envelope;
  if (event.isBase64Encoded) return envelope + 4 * Math.ceil(body.length / 3) + 2;
  return envelope + Buffer.byteLength(JSON.stringify(body.toString("utf8")));
}
function send(res, result) {
  const headers2 = { ...result.headers ?? {} };
  const body = result.body ? Buffer.from(result.body, result.isBase64Encoded ? "base64" : "utf8") : Buffer.alloc(0);
  res.writeHead(result.statusCode ?? 200, { ...headers2, "content-length": body.length });
  res.end(body);
}
var tooLarge = (why) => ({
  statusCode: 413,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ detail: `${why}; ${STAGING_HINT}` })
});

// local/embedded-dynamodb.ts
import { createRequire } from "node:module";
import { mkdirSync as mkdirSync2 } from "node:fs";
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient as DynamoDBClient2, ResourceNotFoundException } from "@aws-sdk/client-dynamodb";

// lambdas/platform/table-definition.ts
var TABLE_KEYS = {
  partitionKey: "pk",
  sortKey: "sk",
  ttlAttribute: "ttl",
  indexes: [
    { name: "gsi1", partitionKey: "gsi1pk", sortKey: "gsi1sk" },
    { name: "gsi2", partitionKey: "gsi2pk", sortKey: "gsi2sk" },
    // Sparse: items with work still owed (an unpublished event, a resource to recover), by due time.
    { name: "gsi3", partitionKey: "gsi3pk", sortKey: "gsi3sk" }
  ]
};
function createTableInput(tableName2) {
  const attrs = /* @__PURE__ */ new Set([TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey]);
  for (const index of TABLE_KEYS.indexes) {
    attrs.add(index.partitionKey);
    attrs.add(index.sortKey);
  }
  return {
    TableName: tableName2,
    BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: [...attrs].map((name) => ({ AttributeName: name, AttributeType: "S" })),
    KeySchema: [
      { AttributeName: TABLE_KEYS.partitionKey, KeyType: "HASH" },
      { AttributeName: TABLE_KEYS.sortKey, KeyType: "RANGE" }
    ],
    GlobalSecondaryIndexes: TABLE_KEYS.indexes.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: "HASH" },
        { AttributeName: index.sortKey, KeyType: "RANGE" }
      ],
      Projection: { ProjectionType: "ALL" }
    }))
  };
}

// local/embedded-dynamodb.ts
var require2 = createRequire(import.meta.url);
var dynalite = require2("dynalite");
async function startEmbeddedDynamo(dir, port = 0) {
  if (dir) mkdirSync2(dir, { recursive: true });
  const server = dynalite({ path: dir ?? void 0, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise((resolve3, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve3());
  });
  const endpoint = `http://127.0.0.1:${server.address().port}`;
  return {
    endpoint,
    close: () => new Promise((resolve3) => server.close(() => resolve3()))
  };
}
async function ensureTable(endpoint, tableName2) {
  const client6 = new DynamoDBClient2({ endpoint, region: process.env.AWS_REGION ?? "us-east-1" });
  try {
    await client6.send(new DescribeTableCommand({ TableName: tableName2 }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException) && error.name !== "ResourceNotFoundException") throw error;
    await client6.send(new CreateTableCommand(createTableInput(tableName2)));
  } finally {
    client6.destroy();
  }
}

// local/embedded-s3.ts
import { createRequire as createRequire3 } from "node:module";
import { createServer as createServer2 } from "node:http";
import { mkdirSync as mkdirSync3 } from "node:fs";
import { CreateBucketCommand, HeadBucketCommand, S3Client as S3Client2 } from "@aws-sdk/client-s3";

// local/atomic-file-store.ts
import { createHash as createHash3, randomUUID as randomUUID3 } from "node:crypto";
import { createWriteStream } from "node:fs";
import { createRequire as createRequire2 } from "node:module";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
var PARTIAL_SUFFIX = ".partial";
async function writeWhole(path, data) {
  const temp = `${path}.${randomUUID3()}${PARTIAL_SUFFIX}`;
  try {
    await writeFile(temp, data);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
function makeStoreAtomic(store) {
  const { pick, pickBy } = metadataFilters();
  store.putMetadata = async (bucket2, key4, metadata2, md5) => {
    const json2 = { ...pick(metadata2), ...pickBy(metadata2) };
    if (md5) await writeWhole(store.getResourcePath(bucket2, key4, "object.md5"), md5);
    await writeWhole(store.getResourcePath(bucket2, key4, "metadata.json"), JSON.stringify(json2, null, 2));
  };
  store.putObject = async (object11) => {
    const path = store.getResourcePath(object11.bucket, object11.key, "object");
    await mkdir(dirname(path), { recursive: true });
    const hash = createHash3("md5");
    let size = 0;
    const temp = `${path}.${randomUUID3()}${PARTIAL_SUFFIX}`;
    try {
      if (Buffer.isBuffer(object11.content)) {
        hash.update(object11.content);
        size = object11.content.length;
        await writeFile(temp, object11.content);
      } else {
        const count = new Transform({
          transform(chunk, _encoding, callback) {
            hash.update(chunk);
            size += chunk.length;
            callback(null, chunk);
          }
        });
        await pipeline(object11.content, count, createWriteStream(temp));
      }
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    const md5 = hash.digest("hex");
    await store.putMetadata(object11.bucket, object11.key, object11.metadata, md5);
    return { size, md5 };
  };
}
function metadataFilters() {
  const S3Object = createRequire2(import.meta.url)("s3rver/lib/models/object");
  const allowed = new Set(S3Object.ALLOWED_METADATA);
  return {
    pick: (m) => Object.fromEntries(Object.entries(m).filter(([k]) => allowed.has(k))),
    pickBy: (m) => Object.fromEntries(Object.entries(m).filter(([k]) => k.startsWith("x-amz-meta-")))
  };
}

// local/file-store-repair.ts
import { createHash as createHash4 } from "node:crypto";
import { closeSync, openSync, readdirSync, readFileSync as readFileSync2, readSync, rmSync, statSync } from "node:fs";
import { join as join2 } from "node:path";
var SUFFIX = "._S3rver_";
var OBJECT = `${SUFFIX}object`;
var MD5 = `${SUFFIX}object.md5`;
var METADATA = `${SUFFIX}metadata.json`;
function repairFileStore(root) {
  const removed = [];
  for (const bucket2 of entries(root)) if (bucket2.isDirectory()) repairDirectory(join2(root, bucket2.name), bucket2.name, removed);
  return { removed };
}
function repairDirectory(dir, prefix, removed) {
  const names = /* @__PURE__ */ new Set();
  for (const entry of entries(dir)) {
    const path = join2(dir, entry.name);
    if (entry.isDirectory()) {
      repairDirectory(path, `${prefix}/${entry.name}`, removed);
      continue;
    }
    const at = entry.name.lastIndexOf(SUFFIX);
    if (at >= 0 && entry.name.endsWith(PARTIAL_SUFFIX) || at === 0 && stat(path)?.size === 0) {
      rmSync(path, { force: true });
      removed.push(`${prefix}/${entry.name}`);
      continue;
    }
    if (at > 0 && [OBJECT, MD5, METADATA].includes(entry.name.slice(at))) names.add(entry.name.slice(0, at));
  }
  for (const name of names) {
    const base3 = join2(dir, name);
    if (isComplete(base3)) continue;
    for (const suffix of [OBJECT, MD5, METADATA]) rmSync(base3 + suffix, { force: true });
    removed.push(`${prefix}/${name}`);
  }
}
function isComplete(base3) {
  const object11 = stat(base3 + OBJECT);
  const metadata2 = stat(base3 + METADATA);
  if (!object11 || !metadata2 || !parsesAsJsonObject(base3 + METADATA)) return false;
  const md5 = stat(base3 + MD5);
  const digest = md5 ? readFileSync2(base3 + MD5, "utf8") : null;
  if (digest !== null && !/^[0-9a-f]{32}$/.test(digest)) return false;
  const inOrder = object11.mtimeMs <= metadata2.mtimeMs && (!md5 || object11.mtimeMs <= md5.mtimeMs && md5.mtimeMs <= metadata2.mtimeMs);
  if (inOrder) return true;
  return digest !== null && md5Of(base3 + OBJECT) === digest;
}
function md5Of(path) {
  const hash = createHash4("md5");
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  const fd = openSync(path, "r");
  try {
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) hash.update(buffer.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
}
function parsesAsJsonObject(path) {
  try {
    const value = JSON.parse(readFileSync2(path, "utf8"));
    return typeof value === "object" && value !== null;
  } catch {
    return false;
  }
}
function stat(path) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
function entries(dir) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

// local/signed-store-gateway.ts
import Busboy2 from "busboy";

// local/sigv4.ts
import { createHash as createHash5, createHmac, timingSafeEqual } from "node:crypto";
var ALGORITHM = "AWS4-HMAC-SHA256";
var MAX_SKEW_MS = 15 * 60 * 1e3;
var MAX_PRESIGN_SECONDS = 7 * 24 * 3600;
var deny = (code, message) => ({ ok: false, code, message });
var escapeUri = (value) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
var hmac = (key4, data) => createHmac("sha256", key4).update(data, "utf8").digest();
var sha256Hex2 = (data) => createHash5("sha256").update(data, "utf8").digest("hex");
function signingKey(secret, date, region, service) {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), "aws4_request");
}
function sameSignature(expected, provided) {
  const given = Buffer.from(provided, "utf8");
  const wanted = Buffer.from(expected.toString("hex"), "utf8");
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
function parseAmzDate(value) {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? "");
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : NaN;
}
function parseCredential(value) {
  const parts = (value ?? "").split("/");
  if (parts.length !== 5 || parts[4] !== "aws4_request") return null;
  const [accessKeyId, date, region, service] = parts;
  return { accessKeyId, date, region, service, scope: parts.slice(1).join("/") };
}
function decode(component) {
  try {
    return decodeURIComponent(component);
  } catch {
    return component;
  }
}
function queryPairs(rawQuery) {
  if (!rawQuery) return [];
  return rawQuery.split("&").filter(Boolean).map((pair) => {
    const at = pair.indexOf("=");
    return at < 0 ? [decode(pair), ""] : [decode(pair.slice(0, at)), decode(pair.slice(at + 1))];
  });
}
function canonicalQuery(pairs, without) {
  return pairs.filter(([k]) => k !== without).map(([k, v]) => [escapeUri(k), escapeUri(v)]).sort(([ak, av], [bk, bv]) => ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0).map(([k, v]) => `${k}=${v}`).join("&");
}
function headerValue(headers2, name) {
  const v = headers2[name];
  return Array.isArray(v) ? v.join(",") : v;
}
function checkSignature(request, credential, signedHeaders, amzDate, payloadHash, query, provided, secret) {
  const names = signedHeaders.split(";");
  if (!names.includes("host")) return deny("AccessDenied", "The host header must be signed");
  const canonicalHeaders = names.map((name) => `${name}:${(headerValue(request.headers, name) ?? "").trim().replace(/\s+/g, " ")}
`).join("");
  const path = request.url.split("?")[0];
  const canonicalRequest = [request.method.toUpperCase(), path, query, canonicalHeaders, signedHeaders, payloadHash].join("\n");
  const stringToSign = [ALGORITHM, amzDate, credential.scope, sha256Hex2(canonicalRequest)].join("\n");
  const expected = hmac(signingKey(secret.secretAccessKey, credential.date, credential.region, credential.service), stringToSign);
  return sameSignature(expected, provided) ? { ok: true } : deny("SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided");
}
function checkScope(credential, amzDate, secret) {
  if (!credential) return deny("AuthorizationQueryParametersError", "Malformed credential scope");
  if (credential.accessKeyId !== secret.accessKeyId) return deny("InvalidAccessKeyId", "The access key id is not known to this store");
  if (credential.service !== "s3" || !amzDate.startsWith(credential.date)) return deny("SignatureDoesNotMatch", "The credential scope does not match the request");
  return { ok: true };
}
function verifyRequest(request, secret, now2 = Date.now()) {
  const rawQuery = request.url.includes("?") ? request.url.slice(request.url.indexOf("?") + 1) : "";
  const pairs = queryPairs(rawQuery);
  const param = (name) => pairs.find(([k]) => k === name)?.[1];
  const authorization = headerValue(request.headers, "authorization");
  if (authorization !== void 0) {
    const m = /^AWS4-HMAC-SHA256\s+Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/.exec(authorization.trim());
    if (!m) return deny("AccessDenied", "Only AWS Signature Version 4 (AWS4-HMAC-SHA256) is accepted");
    const amzDate = headerValue(request.headers, "x-amz-date") ?? "";
    const at = parseAmzDate(amzDate);
    if (Number.isNaN(at)) return deny("AccessDenied", "x-amz-date is missing or malformed");
    if (Math.abs(now2 - at) > MAX_SKEW_MS) return deny("AccessDenied", "The difference between the request time and the current time is too large");
    const credential = parseCredential(m[1]);
    const scope = checkScope(credential, amzDate, secret);
    if (!scope.ok) return scope;
    const payloadHash = headerValue(request.headers, "x-amz-content-sha256");
    if (!payloadHash) return deny("AccessDenied", "x-amz-content-sha256 is required");
    return checkSignature(request, credential, m[2], amzDate, payloadHash, canonicalQuery(pairs), m[3], secret);
  }
  if (param("X-Amz-Algorithm") !== void 0) {
    if (param("X-Amz-Algorithm") !== ALGORITHM) return deny("AuthorizationQueryParametersError", "X-Amz-Algorithm must be AWS4-HMAC-SHA256");
    const amzDate = param("X-Amz-Date") ?? "";
    const at = parseAmzDate(amzDate);
    const expires = Number(param("X-Amz-Expires"));
    const signature = param("X-Amz-Signature") ?? "";
    const signedHeaders = param("X-Amz-SignedHeaders") ?? "";
    if (Number.isNaN(at) || !Number.isInteger(expires) || expires < 1 || expires > MAX_PRESIGN_SECONDS || !/^[0-9a-f]{64}$/.test(signature) || !signedHeaders) {
      return deny("AuthorizationQueryParametersError", "Malformed presigned URL parameters");
    }
    if (now2 > at + expires * 1e3) return deny("AccessDenied", "Request has expired");
    if (at - now2 > MAX_SKEW_MS) return deny("AccessDenied", "Request is not yet valid");
    const credential = parseCredential(param("X-Amz-Credential"));
    const scope = checkScope(credential, amzDate, secret);
    if (!scope.ok) return scope;
    const payloadHash = param("X-Amz-Content-Sha256") ?? "UNSIGNED-PAYLOAD";
    return checkSignature(request, credential, signedHeaders, amzDate, payloadHash, canonicalQuery(pairs, "X-Amz-Signature"), signature, secret);
  }
  return deny("AccessDenied", "Anonymous access is not allowed: sign the request (AWS Signature Version 4)");
}
var FORM_OVERHEAD_BYTES = 64 * 1024;
var POLICY_EXEMPT_FIELDS = /* @__PURE__ */ new Set(["policy", "x-amz-signature", "file"]);
function verifyPostPolicy(form, secret, now2 = Date.now()) {
  const fields = Object.fromEntries(Object.entries(form.fields).map(([k, v]) => [k.toLowerCase(), v]));
  const policyText = fields.policy;
  if (!policyText) return deny("AccessDenied", "Anonymous access is not allowed: a POST upload needs a signed policy");
  if (fields["x-amz-algorithm"] !== ALGORITHM) return deny("AccessDenied", "x-amz-algorithm must be AWS4-HMAC-SHA256");
  const amzDate = fields["x-amz-date"] ?? "";
  const credential = parseCredential(fields["x-amz-credential"]);
  const scope = checkScope(credential, amzDate, secret);
  if (!scope.ok) return scope;
  const expected = hmac(signingKey(secret.secretAccessKey, credential.date, credential.region, credential.service), policyText);
  if (!sameSignature(expected, fields["x-amz-signature"] ?? "")) return deny("SignatureDoesNotMatch", "The policy signature does not match");
  let policy;
  try {
    policy = JSON.parse(Buffer.from(policyText, "base64").toString("utf8"));
  } catch {
    return deny("AccessDenied", "The policy is not valid JSON");
  }
  const expiration = Date.parse(policy.expiration ?? "");
  if (Number.isNaN(expiration) || now2 > expiration) return deny("AccessDenied", "Invalid according to Policy: Policy expired");
  const values = { ...fields, bucket: form.bucket };
  const covered = /* @__PURE__ */ new Set(["bucket"]);
  for (const condition of policy.conditions ?? []) {
    const failed2 = (what) => deny("AccessDenied", `Invalid according to Policy: Policy Condition failed: ${what}`);
    if (Array.isArray(condition)) {
      if (condition[0] === "content-length-range") {
        const [, min, max] = condition;
        if (form.bodyLength !== null && (form.bodyLength < Number(min) || form.bodyLength > Number(max) + FORM_OVERHEAD_BYTES)) return failed2(JSON.stringify(condition));
        continue;
      }
      const [op, rawName, arg] = condition;
      const name = String(rawName).replace(/^\$/, "").toLowerCase();
      covered.add(name);
      const value = values[name] ?? "";
      if (op === "eq" && value !== String(arg)) return failed2(JSON.stringify(condition));
      if (op === "starts-with" && !value.startsWith(String(arg))) return failed2(JSON.stringify(condition));
      if (op !== "eq" && op !== "starts-with") return failed2(JSON.stringify(condition));
    } else if (condition && typeof condition === "object") {
      for (const [rawName, expectedValue] of Object.entries(condition)) {
        const name = rawName.toLowerCase();
        covered.add(name);
        if ((values[name] ?? "") !== String(expectedValue)) return failed2(JSON.stringify(condition));
      }
    }
  }
  for (const name of Object.keys(fields)) {
    if (POLICY_EXEMPT_FIELDS.has(name) || name.startsWith("x-ignore-") || covered.has(name)) continue;
    return deny("AccessDenied", `Invalid according to Policy: Extra input fields: ${name}`);
  }
  return { ok: true };
}

// local/signed-store-gateway.ts
var MAX_FORM_PREFIX_BYTES = 1024 * 1024;
function signedStoreGateway(store, secret) {
  return (req, res) => {
    if (req.method === "OPTIONS") return store(req, res);
    const contentType = req.headers["content-type"] ?? "";
    const isFormUpload = req.method === "POST" && /^multipart\/form-data/i.test(contentType) && !req.headers.authorization && !/[?&]X-Amz-Algorithm=/.test(req.url ?? "");
    if (!isFormUpload) {
      const verdict = verifyRequest({ method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers }, secret);
      return verdict.ok ? store(req, res) : refuse(req, res, verdict);
    }
    readFormPrefix(req).then(({ fields, consumed }) => {
      const bucket2 = decodeURIComponent((req.url ?? "/").split("?")[0].split("/")[1] ?? "");
      const declared = req.headers["content-length"] === void 0 ? null : Number(req.headers["content-length"]);
      const verdict = verifyPostPolicy({ fields, bucket: bucket2, bodyLength: declared }, secret);
      if (!verdict.ok) return refuse(req, res, verdict);
      req.unshift(consumed);
      store(req, res);
    }).catch((error) => refuse(req, res, { ok: false, code: "AccessDenied", message: `Malformed POST upload: ${error.message}` }));
  };
}
function readFormPrefix(req) {
  return new Promise((resolve3, reject) => {
    const parser = Busboy2({ headers: req.headers, limits: { fields: 50, fieldSize: 64 * 1024 } });
    const fields = {};
    const chunks = [];
    let size = 0;
    let done = false;
    const finish = (error) => {
      if (done) return;
      done = true;
      req.off("data", onData);
      req.off("end", onEnd);
      req.pause();
      parser.removeAllListeners();
      parser.on("error", () => void 0);
      if (error) reject(error);
      else resolve3({ fields, consumed: Buffer.concat(chunks, size) });
    };
    parser.on("field", (name, value) => fields[name] = value);
    parser.on("file", (_name, stream) => {
      stream.on("error", () => void 0);
      stream.resume();
      finish();
    });
    parser.on("error", (error) => finish(error));
    const onData = (chunk) => {
      chunks.push(chunk);
      size += chunk.length;
      parser.write(chunk);
      if (!done && size > MAX_FORM_PREFIX_BYTES) finish(new Error(`no file part within the first ${MAX_FORM_PREFIX_BYTES} bytes`));
    };
    const onEnd = () => finish(new Error("the body has no file part"));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", (error) => finish(error));
  });
}
function refuse(req, res, verdict) {
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<Error><Code>${verdict.code}</Code><Message>${escapeXml(verdict.message)}</Message></Error>`;
  res.writeHead(verdict.code === "AuthorizationQueryParametersError" ? 400 : 403, { "content-type": "application/xml", "content-length": Buffer.byteLength(body), connection: "close" });
  res.end(req.method === "HEAD" ? void 0 : body);
  req.resume();
}
var escapeXml = (s) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

// local/embedded-s3.ts
var require3 = createRequire3(import.meta.url);
var S3rver = require3("s3rver");
async function startEmbeddedS3(dir, options) {
  mkdirSync3(dir, { recursive: true });
  const { removed } = repairFileStore(dir);
  if (removed.length) {
    console.warn(`embedded S3: removed ${removed.length} object(s) an interrupted write left incomplete: ${removed.slice(0, 10).join(", ")}${removed.length > 10 ? ", \u2026" : ""}`);
  }
  const s32 = new S3rver({ directory: dir, silent: true, vhostBuckets: false });
  makeStoreAtomic(s32.store);
  const server = createServer2(signedStoreGateway(s32.callback(), options.secret));
  const host = options.host ?? "127.0.0.1";
  await new Promise((resolve3, reject) => {
    server.once(
      "error",
      (error) => reject(error.code === "EADDRINUSE" ? new Error(`Port ${options.port} of the embedded file store is in use on ${host}; set FILES_PORT to a free port`, { cause: error }) : error)
    );
    server.listen(options.port ?? 0, host, () => resolve3());
  });
  const port = server.address().port;
  const reach = ["0.0.0.0", "::", ""].includes(host) ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  return {
    endpoint: `http://${reach}:${port}`,
    port,
    close: () => new Promise((resolve3) => {
      server.closeAllConnections();
      server.close(() => {
        s32.logger?.close();
        resolve3();
      });
    })
  };
}
async function ensureBuckets(endpoint, buckets, credentials) {
  const client6 = new S3Client2({ endpoint, forcePathStyle: true, region: process.env.AWS_REGION ?? "us-east-1", credentials });
  try {
    for (const bucket2 of buckets) {
      try {
        await client6.send(new HeadBucketCommand({ Bucket: bucket2 }));
        continue;
      } catch (error) {
        const status = error.$metadata?.httpStatusCode;
        if (status !== 404) throw new Error(`Cannot check bucket ${bucket2} at ${endpoint}: ${error.name} (HTTP ${status ?? "no response"})`, { cause: error });
      }
      try {
        await client6.send(new CreateBucketCommand({ Bucket: bucket2 }));
      } catch (error) {
        if (!["BucketAlreadyExists", "BucketAlreadyOwnedByYou"].includes(error.name)) throw error;
      }
    }
  } finally {
    client6.destroy();
  }
}

// local/environment.ts
import { randomBytes as randomBytes4 } from "node:crypto";
import { mkdirSync as mkdirSync4, readFileSync as readFileSync3, renameSync, rmSync as rmSync2, writeFileSync as writeFileSync2 } from "node:fs";
import { join as join3, resolve } from "node:path";
var LOCAL_RESOURCES = {
  table: "phone-validation",
  buckets: { files: "phone-validation-files", screenshots: "phone-validation-screenshots" }
};
function applyLocalEnvironment(endpoints, credentials = EXTERNAL_CREDENTIALS, linkEndpoint) {
  process.env.AWS_REGION ??= "us-east-1";
  process.env.AWS_ACCESS_KEY_ID = credentials.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = credentials.secretAccessKey;
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_PROFILE;
  process.env.AWS_ENDPOINT_URL_DYNAMODB = endpoints.dynamo;
  process.env.AWS_ENDPOINT_URL_S3 = endpoints.s3;
  if (linkEndpoint && linkEndpoint !== endpoints.s3) process.env.S3_LINK_ENDPOINT = linkEndpoint;
  else delete process.env.S3_LINK_ENDPOINT;
  process.env.S3_FORCE_PATH_STYLE = "true";
  process.env.TABLE_NAME ??= LOCAL_RESOURCES.table;
  process.env.FILES_BUCKET ??= LOCAL_RESOURCES.buckets.files;
  process.env.SCREENSHOTS_BUCKET ??= LOCAL_RESOURCES.buckets.screenshots;
  process.env.CLASSIFICATION_PROVIDER ??= "simulator";
  process.env.DEPLOYMENT ??= "local";
}
var EXTERNAL_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
function localStoreSecret(dataDir2) {
  const fresh = () => randomBytes4(32).toString("base64url");
  if (!dataDir2) return { accessKeyId: "S3RVER", secretAccessKey: fresh() };
  const path = join3(dataDir2, "store-secret");
  try {
    const existing = readFileSync3(path, "utf8").trim();
    if (/^[A-Za-z0-9_-]{43}$/.test(existing)) return { accessKeyId: "S3RVER", secretAccessKey: existing };
  } catch {
  }
  mkdirSync4(dataDir2, { recursive: true });
  const secret = fresh();
  writeFileSync2(`${path}.tmp`, secret, { mode: 384 });
  renameSync(`${path}.tmp`, path);
  return { accessKeyId: "S3RVER", secretAccessKey: secret };
}
function writeRuntimeState(dataDir2, state) {
  mkdirSync4(dataDir2, { recursive: true });
  writeFileSync2(join3(dataDir2, "runtime.json"), JSON.stringify(state, null, 2));
}
function clearRuntimeState(dataDir2) {
  rmSync2(join3(dataDir2, "runtime.json"), { force: true });
}

// lambdas/platform/handler.ts
import middy2 from "@middy/core";

// lambdas/api/api-handler.ts
import middy from "@middy/core";

// lambdas/platform/clock.ts
var override = null;
function nowMs() {
  return override ? override() : Date.now();
}
function now() {
  return new Date(nowMs());
}
function nowIso() {
  return now().toISOString();
}
function nowUnix() {
  return Math.floor(nowMs() / 1e3);
}

// lambdas/auth/api-key.ts
import { randomBytes as randomBytes5 } from "node:crypto";
var KEY_PREFIX = "svc_live_";
var DISPLAY_PREFIX_LENGTH = 12;
var SCOPES = ["uploads:write", "uploads:read", "webhooks:manage"];
function generateApiKey() {
  return KEY_PREFIX + randomBytes5(24).toString("base64url");
}
var hashApiKey = (key4) => sha256Hex(key4);
var displayPrefix = (key4) => key4.slice(0, DISPLAY_PREFIX_LENGTH);

// lambdas/auth/identity-repository.ts
import { DeleteCommand, GetCommand as GetCommand2, QueryCommand as QueryCommand2, UpdateCommand as UpdateCommand3 } from "@aws-sdk/lib-dynamodb";

// lambdas/auth/principal-cache.ts
var PRINCIPAL_CACHE_MS = 15e3;
var PRINCIPAL_CACHE_ENTRIES = 1e3;
var principals = /* @__PURE__ */ new Map();
function forgetPrincipals() {
  principals.clear();
}

// lambdas/auth/identity-repository.ts
import * as z11 from "zod";

// lambdas/platform/table-read.ts
var TABLE_ATTRIBUTE = /^(pk|sk|gsi\d(pk|sk)|ttl|entity|version|outbox_.+)$/;
var InvalidItemError = class extends Error {
  constructor(entity, item, why) {
    super(`${entity} item ${String(item.pk)} / ${String(item.sk)}: ${why}`);
    this.name = "InvalidItemError";
  }
};
function versionOf(item) {
  return typeof item.version === "number" ? item.version : 1;
}
function readEntity(entity, schema, item) {
  if (!item) return null;
  if (item.entity !== void 0 && item.entity !== entity) throw new InvalidItemError(entity, item, `holds a ${String(item.entity)}`);
  const version = versionOf(item);
  if (version > ENTITIES[entity].version) throw new InvalidItemError(entity, item, `schema version ${version} is newer than this code reads (${ENTITIES[entity].version})`);
  const attributes = {};
  for (const [name, value] of Object.entries(item)) if (!TABLE_ATTRIBUTE.test(name)) attributes[name] = value;
  const parsed = schema.safeParse(attributes);
  if (!parsed.success) throw new InvalidItemError(entity, item, describeZodError(parsed.error));
  return parsed.data;
}
function readExisting(entity, schema, item) {
  const record9 = readEntity(entity, schema, item);
  if (record9 === null) throw new InvalidItemError(entity, item, "missing");
  return record9;
}

// lambdas/auth/identity-repository.ts
var orgKey = (id) => ({ pk: `ORG#${id}`, sk: "META" });
var userKey = (id) => ({ pk: `USER#${id}`, sk: "META" });
var memberKey = (orgId, userId) => ({ pk: `ORG#${orgId}`, sk: `MEMBER#${userId}` });
var apiKeyKey = (hash) => ({ pk: `APIKEY#${hash}`, sk: "META" });
var organizationSchema = z11.looseObject({
  id: z11.string(),
  name: z11.string(),
  subscription_active: z11.boolean(),
  spam_included_numbers: z11.number().nullable(),
  spam_addon_numbers: z11.number(),
  created_at: z11.string()
});
var userSchema = z11.looseObject({ id: z11.string(), email: z11.string(), created_at: z11.string() });
var apiKeySchema = z11.looseObject({
  id: z11.string(),
  organization_id: z11.string(),
  created_by_user_id: z11.string(),
  display_prefix: z11.string(),
  key_hash: z11.string(),
  scopes: z11.array(z11.string()),
  created_at: z11.string(),
  expires_at: z11.string().nullable(),
  revoked_at: z11.string().nullable()
});
async function putOrganization(org) {
  await putItem("Organization", { ...orgKey(org.id), ...org }, IF_NEW);
}
async function getOrganization(id) {
  const out = await db().send(new GetCommand2({ TableName: tableName(), Key: orgKey(id) }));
  return readEntity("Organization", organizationSchema, out.Item);
}
async function putUser(user) {
  await putItem("User", { ...userKey(user.id), ...user }, IF_NEW);
}
async function getUser(id) {
  const out = await db().send(new GetCommand2({ TableName: tableName(), Key: userKey(id) }));
  return readEntity("User", userSchema, out.Item);
}
async function putMembership(orgId, userId, role, at) {
  await putItem("Membership", {
    ...memberKey(orgId, userId),
    gsi1pk: `USER#${userId}#ORGS`,
    gsi1sk: orgId,
    organization_id: orgId,
    user_id: userId,
    role,
    created_at: at
  });
}
async function getMembership(orgId, userId) {
  const out = await db().send(new GetCommand2({ TableName: tableName(), Key: memberKey(orgId, userId) }));
  return out.Item ? { role: String(out.Item.role) } : null;
}
async function deleteMembership(orgId, userId) {
  const out = await db().send(
    new DeleteCommand({ TableName: tableName(), Key: memberKey(orgId, userId), ReturnValues: "ALL_OLD" })
  );
  return Boolean(out.Attributes);
}
async function listMembershipsOfUser(userId) {
  const orgs = [];
  for await (const item of queryItems({ IndexName: "gsi1", KeyConditionExpression: "gsi1pk = :pk", ExpressionAttributeValues: { ":pk": `USER#${userId}#ORGS` } })) {
    orgs.push(String(item.organization_id));
  }
  return orgs;
}
async function putApiKey(record9) {
  await putItem("ApiKey", {
    ...apiKeyKey(record9.key_hash),
    gsi1pk: `ORG#${record9.organization_id}#KEYS`,
    gsi1sk: `${record9.created_at}#${record9.id}`,
    gsi2pk: `APIKEYID#${record9.id}`,
    gsi2sk: "META",
    ...record9
  }, IF_NEW);
}
async function getApiKeyByHash(hash) {
  const out = await db().send(new GetCommand2({ TableName: tableName(), Key: apiKeyKey(hash) }));
  return readEntity("ApiKey", apiKeySchema, out.Item);
}
async function getApiKeyById(id) {
  const out = await db().send(
    new QueryCommand2({
      TableName: tableName(),
      IndexName: "gsi2",
      KeyConditionExpression: "gsi2pk = :pk",
      ExpressionAttributeValues: { ":pk": `APIKEYID#${id}` }
    })
  );
  return readEntity("ApiKey", apiKeySchema, out.Items?.[0]);
}
async function listApiKeys(orgId) {
  const items = [];
  for await (const item of queryItems({ IndexName: "gsi1", KeyConditionExpression: "gsi1pk = :pk", ExpressionAttributeValues: { ":pk": `ORG#${orgId}#KEYS` } })) {
    items.push(readExisting("ApiKey", apiKeySchema, item));
  }
  return items;
}
async function revokeApiKey(hash, at) {
  forgetPrincipals();
  await conditionalWrite(
    () => db().send(
      new UpdateCommand3({
        TableName: tableName(),
        Key: apiKeyKey(hash),
        UpdateExpression: "SET revoked_at = :at",
        ConditionExpression: "attribute_exists(pk) AND (attribute_not_exists(revoked_at) OR revoked_at = :null)",
        ExpressionAttributeValues: { ":at": at, ":null": null }
      })
    )
  );
  forgetPrincipals();
}

// lambdas/auth/key-usage.ts
import { UpdateCommand as UpdateCommand4 } from "@aws-sdk/lib-dynamodb";
var LAST_USED_RESOLUTION_MS = 6e4;
var MAX_TRACKED = 1e3;
var recorded = /* @__PURE__ */ new Map();
function lastUseDue(hash, now2) {
  const at = recorded.get(hash);
  return at === void 0 || now2 - at >= LAST_USED_RESOLUTION_MS || now2 < at;
}
async function recordKeyUse(hash, now2) {
  if (!lastUseDue(hash, now2)) return;
  if (recorded.size >= MAX_TRACKED) recorded.delete(recorded.keys().next().value);
  recorded.delete(hash);
  recorded.set(hash, now2);
  const at = new Date(now2).toISOString();
  const before = new Date(now2 - LAST_USED_RESOLUTION_MS).toISOString();
  try {
    await conditionalWrite(
      () => db().send(
        new UpdateCommand4({
          TableName: tableName(),
          Key: { pk: `APIKEY#${hash}`, sk: "META" },
          UpdateExpression: "SET last_used_at = :at",
          // attribute_exists: a key deleted meanwhile is not recreated as a fragment.
          ConditionExpression: "attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at < :before)",
          ExpressionAttributeValues: { ":at": at, ":before": before }
        })
      )
    );
  } catch (error) {
    logger.warn("could not record the API key use", { error });
  }
}

// lambdas/auth/authenticate.ts
async function authenticate(authorization) {
  const header = (authorization ?? "").trim();
  if (!header) throw new AuthenticationFailed("API key required");
  if (/^bearer$/i.test(header)) throw new AuthenticationFailed("API key required");
  const bearer = /^bearer\s+(.*)$/is.exec(header);
  if (!bearer) throw new AuthenticationFailed("Invalid API key format");
  const token = bearer[1].trim();
  if (!token.startsWith(KEY_PREFIX)) throw new AuthenticationFailed("Invalid API key format");
  const hash = hashApiKey(token);
  const now2 = nowMs();
  const cached = principals.get(hash);
  if (cached && now2 - cached.at < PRINCIPAL_CACHE_MS && now2 >= cached.at) {
    if (cached.expiresAt !== null && cached.expiresAt <= now2) throw new AuthenticationFailed("Invalid or revoked API key");
    await recordKeyUse(hash, now2);
    return cached.principal;
  }
  principals.delete(hash);
  const key4 = await getApiKeyByHash(hash);
  if (!key4 || key4.revoked_at) throw new AuthenticationFailed("Invalid or revoked API key");
  if (key4.expires_at && Date.parse(key4.expires_at) <= now2) throw new AuthenticationFailed("Invalid or revoked API key");
  const [user, organization] = await Promise.all([getUser(key4.created_by_user_id), getOrganization(key4.organization_id), recordKeyUse(hash, now2)]);
  if (!user) throw new AuthenticationFailed("API key creator no longer exists");
  if (!organization) throw new AuthenticationFailed("Organization for this API key no longer exists");
  const principal = {
    organization,
    organizationId: organization.id,
    userId: user.id,
    apiKeyId: key4.id,
    scopes: key4.scopes
  };
  if (principals.size >= PRINCIPAL_CACHE_ENTRIES) principals.delete(principals.keys().next().value);
  principals.set(hash, { principal, at: now2, expiresAt: key4.expires_at ? Date.parse(key4.expires_at) : null });
  return principal;
}

// lambdas/ratelimit/org-bucket-repository.ts
import { GetCommand as GetCommand3, UpdateCommand as UpdateCommand5 } from "@aws-sdk/lib-dynamodb";
var BUCKET_STAMP2 = stampUpdate("RateBucket");
var orgBucketKey = (orgId) => ({ pk: `RATE#org#${orgId}`, sk: "BUCKET" });
var KEY_PREFIX2 = "key_";
var keyAttribute = (apiKeyId) => `${KEY_PREFIX2}${apiKeyId}`;
var IDLE_TTL_S2 = 86400;
var PRUNE_AT = 16;
var PRUNE_MAX = 100;
var MAX_ATTEMPTS = 8;
var lastTat2 = /* @__PURE__ */ new Map();
var MAX_REMEMBERED2 = 1e4;
function remember2(bucket2, tat) {
  if (lastTat2.size >= MAX_REMEMBERED2 && !lastTat2.has(bucket2)) lastTat2.clear();
  lastTat2.set(bucket2, tat);
}
function guess(bucket2, now2) {
  const known = lastTat2.get(bucket2);
  return known !== void 0 && known < now2 ? "restart" : "spend";
}
var branchFor = (tat, now2) => tat === void 0 || tat < now2 ? "restart" : "spend";
async function takeKeyAndOrgTokens(apiKeyId, orgId, shapes, now2) {
  const keyMemo = `${orgId}/${apiKeyId}`;
  let branches = { key: guess(keyMemo, now2), org: guess(orgId, now2) };
  let lastKeyTat;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const item = await tryTake2(apiKeyId, orgId, shapes, branches, now2);
    if (item) {
      const keyTat2 = Number(item[keyAttribute(apiKeyId)]);
      const orgTat2 = Number(item.tat);
      remember2(keyMemo, keyTat2);
      remember2(orgId, orgTat2);
      await pruneIdleKeys(orgId, item, now2);
      return { taken: true, keyTat: keyTat2, orgTat: orgTat2 };
    }
    const current3 = await readOrgBucket(orgId);
    const keyTat = tatOf(current3?.[keyAttribute(apiKeyId)]);
    const orgTat = tatOf(current3?.tat);
    if (!allows(shapes.key, keyTat, now2)) return { taken: false, scope: "per_key", tat: keyTat };
    if (!allows(shapes.org, orgTat, now2)) return { taken: false, scope: "per_org", tat: orgTat };
    branches = { key: branchFor(keyTat, now2), org: branchFor(orgTat, now2) };
    lastKeyTat = keyTat;
  }
  return { taken: false, scope: "per_key", tat: lastKeyTat };
}
async function tryTake2(apiKeyId, orgId, shapes, branches, now2) {
  const names = { "#o": "tat", "#k": keyAttribute(apiKeyId), "#ttl": "ttl", ...BUCKET_STAMP2.names };
  const values = { ":now": now2, ":ttl": Math.ceil(now2 / 1e3) + IDLE_TTL_S2, ...BUCKET_STAMP2.values };
  const sets = ["#ttl = :ttl", BUCKET_STAMP2.set];
  const conditions = [];
  for (const [alias, shape, branch] of [
    ["o", shapes.org, branches.org],
    ["k", shapes.key, branches.key]
  ]) {
    if (branch === "spend") {
      sets.push(`#${alias} = #${alias} + :${alias}t`);
      conditions.push(`#${alias} >= :now AND #${alias} <= :${alias}limit`);
      values[`:${alias}t`] = intervalMs(shape);
      values[`:${alias}limit`] = now2 + toleranceMs(shape);
    } else {
      sets.push(`#${alias} = :${alias}next`);
      conditions.push(`(attribute_not_exists(#${alias}) OR #${alias} < :now)`);
      values[`:${alias}next`] = now2 + intervalMs(shape);
    }
  }
  try {
    const out = await db().send(
      new UpdateCommand5({
        TableName: tableName(),
        Key: orgBucketKey(orgId),
        UpdateExpression: `SET ${sets.join(", ")}`,
        ConditionExpression: conditions.join(" AND "),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        // The whole item: both tats for the headers, and the idle keys to prune.
        ReturnValues: "ALL_NEW"
      })
    );
    return out.Attributes ?? null;
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    return null;
  }
}
async function pruneIdleKeys(orgId, item, now2) {
  const idle = Object.keys(item).filter((name) => name.startsWith(KEY_PREFIX2) && Number(item[name]) < now2).slice(0, PRUNE_MAX);
  if (idle.length < PRUNE_AT) return;
  const names = Object.fromEntries(idle.map((name, i) => [`#i${i}`, name]));
  try {
    await db().send(
      new UpdateCommand5({
        TableName: tableName(),
        Key: orgBucketKey(orgId),
        UpdateExpression: `REMOVE ${Object.keys(names).join(", ")}`,
        ConditionExpression: Object.keys(names).map((alias) => `${alias} < :now`).join(" AND "),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ":now": now2 }
      })
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}
async function readOrgBucket(orgId) {
  return (await db().send(new GetCommand3({ TableName: tableName(), Key: orgBucketKey(orgId), ConsistentRead: true }))).Item;
}
var tatOf = (value) => value === void 0 ? void 0 : Number(value);

// lambdas/ratelimit/rate-limiter.ts
var PER_KEY = () => ({ limit: config().RATE_LIMIT_PER_KEY });
var PER_ORG = () => ({ limit: config().RATE_LIMIT_PER_ORG });
async function consumeRateLimit(apiKeyId, organizationId) {
  const now2 = nowMs();
  const outcome = await takeKeyAndOrgTokens(apiKeyId, organizationId, { key: PER_KEY(), org: PER_ORG() }, now2);
  if (!outcome.taken) throw limited(outcome.scope, outcome.scope === "per_key" ? PER_KEY() : PER_ORG(), outcome.tat ?? now2, now2);
  const keyRemaining = remainingAfter(PER_KEY(), outcome.keyTat, now2);
  const orgRemaining = remainingAfter(PER_ORG(), outcome.orgTat, now2);
  const [shape, remaining, tat] = keyRemaining <= orgRemaining ? [PER_KEY(), keyRemaining, outcome.keyTat] : [PER_ORG(), orgRemaining, outcome.orgTat];
  return headers(shape, remaining, tat, now2);
}
function limited(scope, shape, tat, now2) {
  const waitMs = allows(shape, tat, now2) ? 1e3 : retryAfterMs(shape, tat, now2);
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1e3));
  return new RateLimited(
    { error: "rate_limit_exceeded", scope, limit: shape.limit, retry_after_seconds: retryAfter },
    { retryAfterSeconds: retryAfter, limit: shape.limit, remaining: 0, resetAt: resetAtUnix(tat, now2) }
  );
}
function headers(shape, remaining, tat, now2) {
  return {
    "X-RateLimit-Limit": String(shape.limit),
    "X-RateLimit-Remaining": String(remaining),
    "X-RateLimit-Reset": String(resetAtUnix(tat, now2))
  };
}

// lambdas/platform/errors.ts
var HttpError = class extends Error {
  constructor(status, detail, headers2 = {}) {
    super(typeof detail === "string" ? detail : JSON.stringify(detail));
    this.status = status;
    this.detail = detail;
    this.headers = headers2;
    this.name = "HttpError";
  }
  status;
  detail;
  headers;
};

// lambdas/platform/http/error-response.ts
var STATUS = {
  InvalidInput: 400,
  AuthenticationFailed: 401,
  InsufficientCredits: 402,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  Removed: 410,
  TooLarge: 413,
  UnsupportedContentType: 415,
  TooFewNumbers: 422,
  RateLimited: 429,
  UpstreamFailed: 502
};
function headersOf(error) {
  if (error.kind === "AuthenticationFailed") return { "WWW-Authenticate": "Bearer" };
  if (error.kind === "RateLimited") {
    const { state } = error;
    return {
      "Retry-After": String(state.retryAfterSeconds),
      "X-RateLimit-Limit": String(state.limit),
      "X-RateLimit-Remaining": String(state.remaining),
      "X-RateLimit-Reset": String(state.resetAt)
    };
  }
  return {};
}
var statusOf = (error) => STATUS[error.kind];
function toHttpError(error) {
  if (error instanceof HttpError) return error;
  if (error instanceof DomainError) return new HttpError(statusOf(error), error.detail, headersOf(error));
  return null;
}

// lambdas/platform/http/json-depth.ts
var MAX_JSON_DEPTH = 64;
var OPEN_OBJECT = 123;
var OPEN_ARRAY = 91;
var CLOSE_OBJECT = 125;
var CLOSE_ARRAY = 93;
var QUOTE = 34;
var BACKSLASH = 92;
function jsonNestingDepth(bytes, stopAbove = Infinity) {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) depth--;
  }
  return deepest;
}

// lambdas/platform/http/response.ts
var ok = (body, headers2) => ({ status: 200, body, headers: headers2 });
var created = (body) => ({ status: 201, body });
function toApiGatewayResult(result, requestId) {
  if ("bytes" in result) {
    return {
      statusCode: result.status,
      headers: { "content-type": result.contentType, "x-request-id": requestId, ...result.headers },
      body: result.bytes.toString("base64"),
      isBase64Encoded: true
    };
  }
  return {
    statusCode: result.status,
    headers: {
      ...result.body === void 0 ? {} : { "content-type": "application/json" },
      "x-request-id": requestId,
      ...result.headers
    },
    body: result.body === void 0 ? "" : JSON.stringify(result.body)
  };
}

// lambdas/api/error-envelope.ts
function errorEnvelope() {
  return {
    before: (request) => {
      const requestId = request.event.requestContext?.requestId ?? request.context.awsRequestId;
      logger.resetKeys();
      logger.appendKeys({ request_id: requestId, route: request.event.routeKey });
    },
    after: (request) => {
      logger.info("request", { status: request.response?.statusCode, path: request.event.rawPath });
    },
    onError: (request) => {
      const requestId = request.event.requestContext?.requestId ?? request.context.awsRequestId;
      const error = toHttpError(request.error);
      if (error) {
        if (error.status >= 500) logger.error("request failed", { status: error.status, error: request.error });
        else logger.info("request", { status: error.status, path: request.event.rawPath, detail: error.detail });
        request.response = {
          statusCode: error.status,
          headers: { "content-type": "application/json", "x-request-id": requestId, ...error.headers },
          body: JSON.stringify({ detail: error.detail })
        };
        return;
      }
      logger.error("unhandled error", { error: request.error });
      request.response = {
        statusCode: 500,
        headers: { "content-type": "application/json", "x-request-id": requestId },
        body: JSON.stringify({ detail: `Internal server error (request id ${requestId})` })
      };
    }
  };
}

// lambdas/api/api-handler.ts
function apiHandler(operations) {
  const byKey = new Map(operations.map((op) => [op.key, op]));
  const handler8 = middy().use(errorEnvelope()).handler(async (event, context) => {
    const op = byKey.get(event.routeKey);
    if (!op) throw new HttpError(404, "Not found");
    const requestId = event.requestContext?.requestId ?? context.awsRequestId;
    const result = await runOperation(op, event, requestId);
    return toApiGatewayResult(result, requestId);
  });
  return (event, context) => withLogContext(() => handler8(event, context));
}
async function runOperation(op, event, requestId) {
  const route2 = op.route;
  const headers2 = lowerCaseHeaders(event.headers);
  const ctx = {
    event,
    requestId,
    route: route2,
    principal: void 0,
    params: void 0,
    query: void 0,
    body: void 0,
    rawBody: rawBodyOf(event),
    headers: headers2,
    responseHeaders: {}
  };
  if (route2.auth !== false) {
    ctx.principal = await authenticate(headers2.authorization);
    logger.appendKeys({ organization_id: ctx.principal.organizationId, api_key_id: ctx.principal.apiKeyId });
    if (route2.scope && !ctx.principal.scopes.includes(route2.scope)) throw new Forbidden(`API key lacks scope ${route2.scope}`);
    if (route2.rateLimited) {
      try {
        Object.assign(ctx.responseHeaders, await consumeRateLimit(ctx.principal.apiKeyId, ctx.principal.organizationId));
      } catch (error) {
        if (error instanceof RateLimited) logger.warn("rate limited", { detail: error.detail });
        throw error;
      }
    }
    if (route2.subscription && !ctx.principal.organization.subscription_active) {
      throw new Forbidden("An active subscription is required for this endpoint");
    }
  }
  try {
    if (route2.request?.params) ctx.params = parseParamsOr404(route2.request.params, event.pathParameters ?? {});
    if (route2.request?.query) ctx.query = parseOr400(route2.request.query, event.queryStringParameters ?? {}, "query parameters");
    if (route2.request?.body && acceptsOnlyJson(route2)) ctx.body = parseJsonBody(route2, ctx);
    const result = await op.run(ctx);
    return { ...result, headers: { ...ctx.responseHeaders, ...result.headers } };
  } catch (error) {
    const known = toHttpError(error);
    if (known) throw new HttpError(known.status, known.detail, { ...ctx.responseHeaders, ...known.headers });
    throw error;
  }
}
function acceptsOnlyJson(route2) {
  const types = route2.request?.contentTypes ?? ["application/json"];
  return types.length === 1 && types[0] === "application/json";
}
function parseJsonBody(route2, ctx) {
  const type = mediaType(ctx.headers["content-type"]);
  if (type && !isJsonMediaType(type)) throw new UnsupportedContentType(`Unsupported Content-Type '${type}'; send application/json`);
  const maxJsonBytes = config().MAX_JSON_BODY_BYTES;
  if (ctx.rawBody.length > maxJsonBytes) throw new TooLarge(`Request body exceeds ${maxJsonBytes} bytes`);
  let parsed = {};
  if (ctx.rawBody.length > 0) {
    if (jsonNestingDepth(ctx.rawBody, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      throw new HttpError(400, `JSON body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`);
    }
    try {
      parsed = JSON.parse(ctx.rawBody.toString("utf8"));
    } catch {
      throw new HttpError(400, "Malformed JSON body");
    }
  }
  return route2.request?.body ? parseOr400(route2.request.body, parsed, "request body") : parsed;
}
function lowerCaseHeaders(headers2) {
  const out = {};
  for (const [k, v] of Object.entries(headers2 ?? {})) if (v !== void 0) out[k.toLowerCase()] = v;
  return out;
}

// lambdas/platform/http/operation.ts
function operation(route2, run) {
  return { key: routeKey(route2), route: route2, run };
}

// lambdas/platform/openapi.ts
import * as z12 from "zod";
var SPEC_VERSION = "2026-08-19";
function buildOpenApi(routes2, serverUrl) {
  const components = {};
  const toSchema = (schema, io) => {
    const json2 = z12.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any", reused: "inline" });
    const defs = json2.$defs ?? {};
    for (const [name, def] of Object.entries(defs)) components[name] = rewriteRefs(def);
    const { $schema: _s, $defs: _d, ...rest } = json2;
    return rewriteRefs(rest);
  };
  const paths = {};
  for (const route2 of routes2) {
    const parameters = [];
    for (const [where, schema] of [["path", route2.request?.params], ["query", route2.request?.query]]) {
      if (!schema) continue;
      const json2 = toSchema(schema, "input");
      const props = json2.properties ?? {};
      const required2 = new Set(json2.required ?? []);
      for (const [name, prop] of Object.entries(props)) {
        parameters.push({ name, in: where, required: where === "path" || required2.has(name), schema: prop, description: prop.description });
      }
    }
    const responses = {};
    for (const [status, spec] of Object.entries(route2.responses)) {
      responses[status] = {
        description: spec.description,
        ...spec.schema || spec.contentType ? { content: { [spec.contentType ?? "application/json"]: { schema: spec.schema ? toSchema(spec.schema, "output") : {} } } } : {}
      };
    }
    const requestBody = route2.request?.body ? {
      required: true,
      content: Object.fromEntries(
        (route2.request.contentTypes ?? ["application/json"]).map((type) => [type, mediaTypeObject(type, route2, toSchema, components)])
      )
    } : void 0;
    (paths[route2.path] ??= {})[route2.method.toLowerCase()] = {
      operationId: route2.operationId,
      summary: route2.summary,
      tags: route2.tags,
      ...route2.auth === false ? { security: [] } : {},
      ...parameters.length ? { parameters } : {},
      ...requestBody ? { requestBody } : {},
      responses,
      "x-rate-limited": Boolean(route2.rateLimited),
      "x-requires-subscription": Boolean(route2.subscription)
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Phone Number Validation Service",
      version: SPEC_VERSION,
      description: "US/CA phone validation, Answer Intent and Identity classification, spam monitoring, credits and signed webhooks."
    },
    ...serverUrl ? { servers: [{ url: serverUrl }] } : {},
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "svc_live_ + 32 URL-safe characters" } },
      schemas: components
    }
  };
}
function mediaTypeObject(type, route2, toSchema, components) {
  if (type === "application/json") return { schema: toSchema(route2.request.body, "input") };
  const form = route2.request?.forms?.[type];
  if (!form) throw new Error(`${route2.method} ${route2.path} accepts ${type} but declares no schema for it in request.forms`);
  const schema = toSchema(form, "input");
  const ref = typeof schema.$ref === "string" ? schema.$ref.replace("#/components/schemas/", "") : null;
  const target = ref ? components[ref] ?? {} : schema;
  const encoding = {};
  for (const [name, property] of Object.entries(target.properties ?? {})) {
    if (typeof property.contentMediaType === "string") encoding[name] = { contentType: property.contentMediaType };
  }
  return { schema, ...Object.keys(encoding).length ? { encoding } : {} };
}
function rewriteRefs(value) {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === "object") {
    const out = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = k === "$ref" && typeof v === "string" ? v.replace("#/$defs/", "#/components/schemas/") : rewriteRefs(v);
    }
    return out;
  }
  return value;
}

// lambdas/platform/handler.ts
var routed = apiHandler([
  operation(platformRoutes.openapi, async (ctx) => {
    const host = ctx.headers.host;
    const proto = ctx.headers["x-forwarded-proto"] ?? "https";
    return ok(buildOpenApi(ROUTES, host ? `${proto}://${host}` : void 0));
  })
]);
var fallback = middy2().use(errorEnvelope()).handler(async (event) => {
  const method = event.requestContext.http.method.toUpperCase();
  const { pathExists } = matchRoute(ROUTES, method, event.rawPath);
  if (pathExists) {
    const allowed = ROUTES.filter((r) => matchRoute([r], r.method, event.rawPath).match).map((r) => r.method);
    throw new HttpError(405, `Method ${method} not allowed on ${event.rawPath}`, { Allow: allowed.join(", ") });
  }
  throw new HttpError(404, `No route for ${method} ${event.rawPath}`);
});
var handler = (event, context) => event.routeKey === "$default" ? fallback(event, context) : routed(event, context);

// lambdas/platform/crash-point.ts
function crashPoint(name) {
  if (config().FAULT_CRASH_AT === name) process.kill(process.pid, "SIGKILL");
}

// lambdas/credits/balance-repository.ts
import { GetCommand as GetCommand4, UpdateCommand as UpdateCommand6 } from "@aws-sdk/lib-dynamodb";
import * as z13 from "zod";
var pools = { subscription: z13.number(), purchased: z13.number() };
var balanceSchema = z13.looseObject({
  ...pools,
  organization_id: z13.string(),
  monthly_allocation: z13.number(),
  subscription_cap: z13.number().nullable(),
  period_started_at: z13.string(),
  inflight: z13.record(z13.string(), z13.looseObject(pools)),
  updated_at: z13.string()
});
var ledgerSchema = z13.looseObject({
  change_id: z13.string(),
  organization_id: z13.string(),
  kind: z13.enum(["debit", "refund", "purchase", "replenish", "adjustment"]),
  subscription_delta: z13.number(),
  purchased_delta: z13.number(),
  reason: z13.string(),
  resource_id: z13.string().nullable(),
  refunds_change_id: z13.string().nullable(),
  created_at: z13.string()
});
var balanceKey = (orgId) => ({ pk: `ORG#${orgId}`, sk: "BALANCE" });
var ledgerKey = (orgId, changeId) => ({ pk: `ORG#${orgId}`, sk: `LEDGER#${changeId}` });
async function getBalanceItem(orgId) {
  const out = await db().send(new GetCommand4({ TableName: tableName(), Key: balanceKey(orgId), ConsistentRead: true }));
  return readEntity("Balance", balanceSchema, out.Item);
}
async function createBalance(item) {
  await insertItem("Balance", { ...balanceKey(item.organization_id), gsi1pk: "BALANCES", gsi1sk: item.organization_id, ...item });
}
async function applyPoolDelta(orgId, changeId, delta, guard, at) {
  const values = { ":ds": delta.subscription, ":dp": delta.purchased, ":delta": delta, ":at": at };
  const conditions = ["attribute_exists(pk)", "attribute_not_exists(inflight.#change)"];
  let sets = "subscription = subscription + :ds, purchased = purchased + :dp, inflight.#change = :delta, updated_at = :at";
  if (guard.kind === "cover") {
    conditions.push("subscription >= :needS", "purchased >= :needP");
    values[":needS"] = guard.pools.subscription;
    values[":needP"] = guard.pools.purchased;
  } else if (guard.kind === "at-most" || guard.kind === "period") {
    conditions.push("subscription <= :maxS");
    values[":maxS"] = guard.subscription;
  }
  if (guard.kind === "period") {
    conditions.push("period_started_at = :expected");
    values[":expected"] = guard.expected;
    values[":next"] = guard.next;
    sets += ", period_started_at = :next";
  }
  return conditionalWrite(
    () => db().send(
      new UpdateCommand6({
        TableName: tableName(),
        Key: balanceKey(orgId),
        UpdateExpression: `SET ${sets}`,
        ConditionExpression: conditions.join(" AND "),
        ExpressionAttributeNames: { "#change": changeId },
        ExpressionAttributeValues: values
      })
    )
  );
}
async function clearInflight(orgId, changeId) {
  await db().send(
    new UpdateCommand6({
      TableName: tableName(),
      Key: balanceKey(orgId),
      UpdateExpression: "REMOVE inflight.#change",
      ExpressionAttributeNames: { "#change": changeId }
    })
  );
}
async function getLedgerEntry(orgId, changeId) {
  const out = await db().send(new GetCommand4({ TableName: tableName(), Key: ledgerKey(orgId, changeId), ConsistentRead: true }));
  return readEntity("LedgerEntry", ledgerSchema, out.Item);
}
async function putLedgerEntry(entry) {
  await putItem("LedgerEntry", {
    ...ledgerKey(entry.organization_id, entry.change_id),
    gsi1pk: `ORG#${entry.organization_id}#LEDGER`,
    gsi1sk: `${entry.created_at}#${entry.change_id}`,
    ...entry
  });
}
async function* balanceOrganizations() {
  for await (const item of queryItems({ IndexName: "gsi1", KeyConditionExpression: "gsi1pk = :pk", ExpressionAttributeValues: { ":pk": "BALANCES" } })) {
    yield String(item.organization_id);
  }
}

// lambdas/credits/balance-rules.ts
function splitDebit(pools2, amount) {
  if (!Number.isInteger(amount) || amount < 0) throw new Error(`invalid debit amount ${amount}`);
  if (pools2.subscription + pools2.purchased < amount) return null;
  const fromSubscription = Math.min(pools2.subscription, amount);
  return { subscription: fromSubscription, purchased: amount - fromSubscription };
}
function splitRefund(current3, charged, cap) {
  if (cap === null) return charged;
  const room = Math.max(0, cap - current3.subscription);
  const toSubscription = Math.min(room, charged.subscription);
  return { subscription: toSubscription, purchased: charged.purchased + (charged.subscription - toSubscription) };
}
function replenishedSubscription(current3, allocation, cap) {
  const next = current3 + allocation;
  return cap === null ? next : Math.max(current3, Math.min(cap, next));
}
function periodsElapsed(anchorIso, atMs) {
  const anchor = new Date(anchorIso);
  const at = new Date(atMs);
  let months = (at.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (at.getUTCMonth() - anchor.getUTCMonth());
  if (at.getUTCDate() < anchor.getUTCDate() || at.getUTCDate() === anchor.getUTCDate() && at.getTime() % 864e5 < anchor.getTime() % 864e5) {
    months -= 1;
  }
  return Math.max(0, months);
}
function addMonths(iso, months) {
  const d = new Date(iso);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString();
}

// lambdas/credits/credits.ts
var InsufficientCreditsError = class extends Error {
  constructor(required2, available) {
    super(`Insufficient credits: ${required2} required, ${available} available`);
    this.required = required2;
    this.available = available;
    this.name = "InsufficientCreditsError";
  }
  required;
  available;
};
var MAX_ATTEMPTS2 = 500;
async function ensureBalance(orgId, init = {}) {
  const at = nowIso();
  await createBalance({
    organization_id: orgId,
    subscription: init.subscription ?? 0,
    purchased: init.purchased ?? 0,
    monthly_allocation: init.monthly_allocation ?? 0,
    subscription_cap: init.subscription_cap ?? null,
    period_started_at: at,
    inflight: {},
    updated_at: at
  });
}
async function getBalance(orgId) {
  const item = await getBalanceItem(orgId);
  const subscription = item?.subscription ?? 0;
  const purchased = item?.purchased ?? 0;
  return { total: subscription + purchased, subscription, purchased };
}
async function debit(orgId, changeId, amount, meta) {
  if (!meta.neverCharged) {
    const existing = await getLedgerEntry(orgId, changeId);
    if (existing) return fromLedger(existing, true);
  }
  if (amount === 0) return recordChange(orgId, changeId, "debit", { subscription: 0, purchased: 0 }, meta);
  if (await applyPoolDelta(orgId, changeId, { subscription: -amount, purchased: 0 }, { kind: "cover", pools: { subscription: amount, purchased: 0 } }, nowIso())) {
    return recordChange(orgId, changeId, "debit", { subscription: -amount, purchased: 0 }, meta);
  }
  for (let attempt = 0; attempt < MAX_ATTEMPTS2; attempt++) {
    const item = await getBalanceItem(orgId);
    if (!item) throw new InsufficientCreditsError(amount, 0);
    const applied = await alreadyApplied(orgId, changeId, item, "debit", meta);
    if (applied) return applied;
    const split2 = splitDebit(item, amount);
    if (!split2) throw new InsufficientCreditsError(amount, item.subscription + item.purchased);
    const delta = { subscription: -split2.subscription, purchased: -split2.purchased };
    if (await applyPoolDelta(orgId, changeId, delta, { kind: "cover", pools: split2 }, nowIso())) {
      return recordChange(orgId, changeId, "debit", delta, meta);
    }
    if (attempt > 3) await jitter(attempt);
  }
  throw new Error(`credit debit ${changeId} did not settle after ${MAX_ATTEMPTS2} attempts`);
}
async function refund(orgId, refundChangeId, debitChangeId, meta) {
  const existing = await getLedgerEntry(orgId, refundChangeId);
  if (existing) return fromLedger(existing, true);
  const charged = await chargeOf(orgId, debitChangeId);
  if (!charged) return null;
  const taken = partOf(charged.split, meta.amount);
  const details = { ...meta, refunds: debitChangeId };
  for (let attempt = 0; attempt < MAX_ATTEMPTS2; attempt++) {
    const item = await getBalanceItem(orgId);
    if (!item) throw new Error(`organization ${orgId} has no balance`);
    const applied = await alreadyApplied(orgId, refundChangeId, item, "refund", details);
    if (applied) return applied;
    const back = splitRefund(item, taken, item.subscription_cap);
    const guard = item.subscription_cap === null ? { kind: "none" } : { kind: "at-most", subscription: item.subscription_cap - back.subscription };
    if (await applyPoolDelta(orgId, refundChangeId, back, guard, nowIso())) {
      return recordChange(orgId, refundChangeId, "refund", back, details);
    }
    if (attempt > 3) await jitter(attempt);
  }
  throw new Error(`credit refund ${refundChangeId} did not settle after ${MAX_ATTEMPTS2} attempts`);
}
async function chargeOf(orgId, changeId) {
  const entry = await getLedgerEntry(orgId, changeId);
  if (entry) return fromLedger(entry, true);
  const item = await getBalanceItem(orgId);
  return item ? alreadyApplied(orgId, changeId, item, "debit", { reason: "debit (recorded after an interruption)" }) : null;
}
async function alreadyApplied(orgId, changeId, item, kind, meta) {
  const inflight = item.inflight?.[changeId];
  if (inflight) return recordChange(orgId, changeId, kind, inflight, meta, true);
  const entry = await getLedgerEntry(orgId, changeId);
  return entry ? fromLedger(entry, true) : null;
}
async function addPurchased(orgId, amount, reason = "purchase") {
  if (!Number.isInteger(amount) || amount <= 0) throw new Error("amount must be a positive integer");
  const changeId = `purchase:${newId()}`;
  if (!await applyPoolDelta(orgId, changeId, { subscription: 0, purchased: amount }, { kind: "none" }, nowIso())) {
    throw new Error(`organization ${orgId} has no balance`);
  }
  return recordChange(orgId, changeId, "purchase", { subscription: 0, purchased: amount }, { reason });
}
async function replenishIfDue(orgId) {
  const item = await getBalanceItem(orgId);
  if (!item) return false;
  const due = periodsElapsed(item.period_started_at, nowMs());
  if (due < 1) return false;
  const target = replenishedSubscription(item.subscription, item.monthly_allocation, item.subscription_cap);
  const changeId = `replenish:${item.period_started_at}`;
  const delta = { subscription: target - item.subscription, purchased: 0 };
  const guard = { kind: "period", expected: item.period_started_at, next: addMonths(item.period_started_at, due), subscription: item.subscription };
  if (!await applyPoolDelta(orgId, changeId, delta, guard, nowIso())) {
    return false;
  }
  await recordChange(orgId, changeId, "replenish", delta, { reason: "monthly allocation" });
  return true;
}
function partOf(taken, amount) {
  if (amount === void 0) return taken;
  const whole = taken.subscription + taken.purchased;
  if (!Number.isInteger(amount) || amount < 0 || amount > whole) throw new Error(`cannot refund ${amount} of a debit of ${whole}`);
  const purchased = Math.min(taken.purchased, amount);
  return { subscription: amount - purchased, purchased };
}
async function recordChange(orgId, changeId, kind, delta, meta, replayed = false) {
  crashPoint(`credits.before-ledger:${kind}`);
  const entry = {
    change_id: changeId,
    organization_id: orgId,
    kind,
    subscription_delta: delta.subscription,
    purchased_delta: delta.purchased,
    reason: meta.reason,
    resource_id: meta.resourceId ?? null,
    refunds_change_id: meta.refunds ?? null,
    created_at: nowIso()
  };
  await putLedgerEntry(entry);
  await clearInflight(orgId, changeId);
  return fromLedger(entry, replayed);
}
function fromLedger(entry, replayed) {
  const split2 = { subscription: Math.abs(entry.subscription_delta), purchased: Math.abs(entry.purchased_delta) };
  return { changeId: entry.change_id, amount: split2.subscription + split2.purchased, split: split2, replayed };
}
var jitter = (attempt) => new Promise((r) => setTimeout(r, Math.random() * Math.min(50, 2 + attempt * 3)));

// lambdas/credits/handler.ts
var handler2 = apiHandler([
  operation(creditsRoutes.getBalance, async (ctx) => ok(await getBalance(ctx.principal.organizationId)))
]);

// lambdas/webhooks/delivery-repository.ts
import { GetCommand as GetCommand5, PutCommand as PutCommand2, QueryCommand as QueryCommand4, UpdateCommand as UpdateCommand7 } from "@aws-sdk/lib-dynamodb";

// lambdas/platform/paged-query.ts
import { QueryCommand as QueryCommand3 } from "@aws-sdk/lib-dynamodb";
async function queryPage(query) {
  const pk = `${query.index}pk`;
  const sk = `${query.index}sk`;
  let start;
  if (query.cursor) {
    const position2 = await decodeCursor(query.scope, query.cursor);
    if (position2[pk] !== query.partition || !position2.pk || !position2.sk || !position2[sk] || Object.keys(position2).length !== 4) {
      throw invalidCursor();
    }
    start = position2;
  }
  const found = [];
  do {
    const out = await db().send(
      new QueryCommand3({
        TableName: tableName(),
        IndexName: query.index,
        KeyConditionExpression: `${pk} = :pk`,
        ExpressionAttributeValues: { ":pk": query.partition },
        ScanIndexForward: false,
        Limit: query.limit + 1 - found.length,
        ExclusiveStartKey: start
      })
    );
    for (const item of out.Items ?? []) if (!query.visible || query.visible(item)) found.push(item);
    start = out.LastEvaluatedKey;
  } while (start && found.length <= query.limit);
  const page2 = found.slice(0, query.limit);
  if (found.length <= query.limit) return { data: page2.map(query.map), nextCursor: null };
  const last = page2[page2.length - 1];
  const position = { pk: String(last.pk), sk: String(last.sk), [pk]: String(last[pk]), [sk]: String(last[sk]) };
  return { data: page2.map(query.map), nextCursor: await encodeCursor(query.scope, position) };
}

// lambdas/webhooks/delivery-repository.ts
import * as z15 from "zod";

// lambdas/webhooks/secret-sealer.ts
import * as z14 from "zod";
var SEALED_ALGORITHMS = ["kms", "local-aes-256-gcm"];
var SecretUnopenable = class extends Error {
  constructor(message) {
    super(message);
    this.name = "SecretUnopenable";
  }
};
var SealedSchema = z14.strictObject({ v: z14.literal(1), alg: z14.enum(SEALED_ALGORITHMS), ct: z14.string().min(1) });
var StoredSecretSchema = z14.union([z14.string(), SealedSchema]);
var isSealed = (stored) => typeof stored !== "string";
async function openStored(ports2, stored, context) {
  return isSealed(stored) ? ports2.opener.open(stored, context) : stored;
}
var webhookSecretContext = (organizationId, webhookId) => ({ organization_id: organizationId, webhook_id: webhookId });
var callbackSecretContext = (organizationId, callbackUrl) => ({ organization_id: organizationId, callback_url: callbackUrl });
var canonicalContext = (context) => Buffer.from(JSON.stringify(Object.keys(context).sort().map((k) => [k, context[k]])), "utf8");

// lambdas/webhooks/delivery-repository.ts
var DELIVERY_RETENTION_SECONDS = 30 * 24 * 3600;
var key2 = (id) => ({ pk: `DELIVERY#${id}`, sk: "META" });
var DUE_PARTITION = "DELIVERY#DUE";
var logPartition = (record9) => record9.kind === "webhook" ? `WEBHOOK#${record9.webhook_id}#DELIVERIES` : `ORG#${record9.organization_id}#CALLBACKS`;
async function createDelivery(record9) {
  const item = {
    ...key2(record9.id),
    ...stamp("WebhookDelivery"),
    gsi1pk: logPartition(record9),
    gsi1sk: `${record9.created_at}#${record9.id}`,
    ttl: Math.floor(Date.parse(record9.created_at) / 1e3) + DELIVERY_RETENTION_SECONDS,
    ...record9
  };
  delete item.lease_until;
  if (record9.state === "pending" && record9.next_attempt_at) Object.assign(item, { gsi2pk: DUE_PARTITION, gsi2sk: `${record9.next_attempt_at}#${record9.id}` });
  try {
    await db().send(new PutCommand2({ TableName: tableName(), Item: item, ConditionExpression: "attribute_not_exists(pk)" }));
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}
async function getDelivery(id) {
  const out = await db().send(new GetCommand5({ TableName: tableName(), Key: key2(id), ConsistentRead: true }));
  return out.Item ? strip(out.Item) : null;
}
async function claimAttempt(record9, nowMs2, leaseMs) {
  return conditionalWrite(
    () => db().send(
      new UpdateCommand7({
        TableName: tableName(),
        Key: key2(record9.id),
        UpdateExpression: "SET lease_until = :until",
        ConditionExpression: "#state = :pending AND attempt_count = :made AND (attribute_not_exists(lease_until) OR lease_until < :now)",
        ExpressionAttributeNames: { "#state": "state" },
        ExpressionAttributeValues: { ":until": nowMs2 + leaseMs, ":pending": "pending", ":made": record9.attempt_count, ":now": nowMs2 }
      })
    )
  );
}
async function recordAttempt(record9, attempt, next, at) {
  const values = {
    ":attempt": [attempt],
    ":n": attempt.attempt,
    ":made": record9.attempt_count,
    ":state": next.state,
    ":next": next.next_attempt_at,
    ":at": at,
    ":pending": "pending"
  };
  let update = "SET attempts = list_append(attempts, :attempt), attempt_count = :n, #state = :state, next_attempt_at = :next, updated_at = :at";
  if (next.state === "pending") {
    update += ", gsi2sk = :due REMOVE lease_until";
    values[":due"] = `${next.next_attempt_at}#${record9.id}`;
  } else {
    update += " REMOVE lease_until, gsi2pk, gsi2sk";
  }
  return conditionalWrite(
    () => db().send(
      new UpdateCommand7({
        TableName: tableName(),
        Key: key2(record9.id),
        UpdateExpression: update,
        ConditionExpression: "#state = :pending AND attempt_count = :made",
        ExpressionAttributeNames: { "#state": "state" },
        ExpressionAttributeValues: values
      })
    )
  );
}
async function markExhausted(id, reason, at) {
  return conditionalWrite(
    () => db().send(
      new UpdateCommand7({
        TableName: tableName(),
        Key: key2(id),
        UpdateExpression: "SET #state = :exhausted, exhausted_reason = :reason, next_attempt_at = :null, updated_at = :at REMOVE lease_until, gsi2pk, gsi2sk",
        ConditionExpression: "#state = :pending",
        ExpressionAttributeNames: { "#state": "state" },
        ExpressionAttributeValues: { ":exhausted": "exhausted", ":reason": reason, ":null": null, ":at": at, ":pending": "pending" }
      })
    )
  );
}
async function dueDeliveryIds(dueBy, limit) {
  const out = await db().send(
    new QueryCommand4({
      TableName: tableName(),
      IndexName: "gsi2",
      KeyConditionExpression: "gsi2pk = :pk AND gsi2sk <= :upper",
      ExpressionAttributeValues: { ":pk": DUE_PARTITION, ":upper": `${dueBy}#\uFFFF` },
      Limit: limit
    })
  );
  return (out.Items ?? []).map((item) => String(item.id));
}
async function pendingDeliveryIdsOfWebhook(webhookId) {
  const ids = [];
  for await (const item of queryItems({
    IndexName: "gsi1",
    KeyConditionExpression: "gsi1pk = :pk",
    FilterExpression: "#state = :pending",
    ExpressionAttributeNames: { "#state": "state" },
    ExpressionAttributeValues: { ":pk": `WEBHOOK#${webhookId}#DELIVERIES`, ":pending": "pending" },
    ProjectionExpression: "id"
  })) {
    ids.push(String(item.id));
  }
  return ids;
}
async function listDeliveriesOfWebhook(organizationId, webhookId, limit, cursor) {
  const page2 = await queryPage({
    // A cursor from another endpoint's log (or another organization) does not decode here.
    scope: cursorScope("webhook-deliveries", organizationId, { webhook: webhookId }),
    index: "gsi1",
    partition: `WEBHOOK#${webhookId}#DELIVERIES`,
    limit,
    cursor,
    map: strip
  });
  return { items: page2.data, nextCursor: page2.nextCursor };
}
var attemptSchema = z15.looseObject({ attempt: z15.number(), attempted_at: z15.string(), status_code: z15.number().nullable(), error: z15.string().nullable() });
var deliverySchema = z15.looseObject({
  id: z15.string(),
  organization_id: z15.string(),
  kind: z15.enum(["webhook", "callback"]),
  webhook_id: z15.string().nullable(),
  callback_url: z15.string().nullable(),
  callback_secret: StoredSecretSchema.nullable(),
  event_id: z15.string(),
  event_type: z15.string(),
  body: z15.string(),
  state: z15.enum(["pending", "succeeded", "exhausted"]),
  attempt_count: z15.number(),
  attempts: z15.array(attemptSchema),
  next_attempt_at: z15.string().nullable(),
  exhausted_reason: z15.string().nullable(),
  lease_until: z15.number().nullable().optional(),
  created_at: z15.string(),
  updated_at: z15.string()
});
var strip = (item) => readExisting("WebhookDelivery", deliverySchema, item);

// lambdas/webhooks/endpoint-repository.ts
import { DeleteCommand as DeleteCommand2, GetCommand as GetCommand6 } from "@aws-sdk/lib-dynamodb";
import * as z16 from "zod";
var key3 = (id) => ({ pk: `WEBHOOK#${id}`, sk: "META" });
var orgPartition = (orgId) => `ORG#${orgId}#WEBHOOKS`;
async function putEndpoint(record9) {
  await putItem("WebhookEndpoint", { ...key3(record9.id), gsi1pk: orgPartition(record9.organization_id), gsi1sk: `${record9.created_at}#${record9.id}`, ...record9 }, IF_NEW);
}
async function getEndpoint(id) {
  const out = await db().send(new GetCommand6({ TableName: tableName(), Key: key3(id), ConsistentRead: true }));
  return out.Item ? strip2(out.Item) : null;
}
async function listEndpoints(orgId) {
  const items = [];
  for await (const item of queryItems({ IndexName: "gsi1", KeyConditionExpression: "gsi1pk = :pk", ExpressionAttributeValues: { ":pk": orgPartition(orgId) }, ScanIndexForward: false })) {
    items.push(strip2(item));
  }
  return items;
}
async function updateEndpointFields(id, orgId, fields) {
  const { sets, names, values } = setClause(fields);
  values[":org"] = orgId;
  const item = await updateReturning({
    Key: key3(id),
    UpdateExpression: `SET ${sets.join(", ")}`,
    ConditionExpression: "attribute_exists(pk) AND organization_id = :org",
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values
  });
  return item && strip2(item);
}
async function deleteEndpointItem(id, orgId) {
  return conditionalWrite(
    () => db().send(
      new DeleteCommand2({ TableName: tableName(), Key: key3(id), ConditionExpression: "attribute_exists(pk) AND organization_id = :org", ExpressionAttributeValues: { ":org": orgId } })
    )
  );
}
async function recordEndpointSuccess(id, at) {
  await updateItem({
    Key: key3(id),
    UpdateExpression: "SET consecutive_failures = :zero, last_success_at = :at",
    ConditionExpression: "attribute_exists(pk)",
    ExpressionAttributeValues: { ":zero": 0, ":at": at }
  });
}
async function recordEndpointFailure(id, at) {
  const item = await updateReturning({
    Key: key3(id),
    UpdateExpression: "SET last_failure_at = :at ADD consecutive_failures :one",
    ConditionExpression: "attribute_exists(pk)",
    ExpressionAttributeValues: { ":one": 1, ":at": at }
  });
  if (!item) return null;
  const endpoint = strip2(item);
  return { consecutive_failures: endpoint.consecutive_failures, is_active: endpoint.is_active };
}
async function disableEndpoint(id, at, threshold) {
  return updateItem({
    Key: key3(id),
    UpdateExpression: "SET is_active = :false, disabled_at = :at",
    ConditionExpression: "attribute_exists(pk) AND is_active = :true AND consecutive_failures >= :threshold",
    ExpressionAttributeValues: { ":false": false, ":true": true, ":at": at, ":threshold": threshold }
  });
}
var endpointSchema = z16.looseObject({
  id: z16.string(),
  organization_id: z16.string(),
  url: z16.string(),
  description: z16.string().nullable(),
  events: z16.array(z16.enum(EVENT_TYPES)),
  is_active: z16.boolean(),
  verified_at: z16.string().nullable(),
  last_success_at: z16.string().nullable(),
  last_failure_at: z16.string().nullable(),
  consecutive_failures: z16.number(),
  disabled_at: z16.string().nullable(),
  created_at: z16.string(),
  updated_at: z16.string(),
  secret: StoredSecretSchema
});
var strip2 = (item) => readExisting("WebhookEndpoint", endpointSchema, item);

// lambdas/webhooks/delivery-queue.ts
async function enqueueDelivery(queue, deliveryId, dueAtMs) {
  if (!queue) return;
  try {
    await queue.enqueue(deliveryId, dueAtMs);
  } catch (error) {
    logger.warn("webhook delivery enqueue failed; the sweeper will pick it up", { delivery_id: deliveryId, error });
  }
}

// lambdas/webhooks/fan-out.ts
var deliveryIdFor = (eventId2, receiver) => `dlv_${sha256Hex(`${eventId2}|${receiver}`).slice(0, 32)}`;
function newDelivery(organizationId, event, target, id) {
  const at = nowIso();
  return {
    id,
    organization_id: organizationId,
    ...target,
    event_id: event.id,
    event_type: event.type,
    body: JSON.stringify(event),
    state: "pending",
    attempt_count: 0,
    attempts: [],
    next_attempt_at: at,
    exhausted_reason: null,
    lease_until: null,
    created_at: at,
    updated_at: at
  };
}
async function fanOutToEndpoints(ports2, organizationId, event) {
  const endpoints = (await listEndpoints(organizationId)).filter((e2) => e2.is_active && e2.events.includes(event.type));
  const ids = [];
  for (const endpoint of endpoints) {
    const id = deliveryIdFor(event.id, `webhook:${endpoint.id}`);
    const record9 = newDelivery(organizationId, event, { kind: "webhook", webhook_id: endpoint.id, callback_url: null, callback_secret: null }, id);
    if (await createDelivery(record9)) await enqueueDelivery(ports2.deliveryQueue, id, nowMs());
    ids.push(id);
  }
  return ids;
}
async function enqueueCallback(ports2, input) {
  const id = deliveryIdFor(input.event.id, `callback:${input.url}`);
  const record9 = newDelivery(input.organizationId, input.event, { kind: "callback", webhook_id: null, callback_url: input.url, callback_secret: input.secret }, id);
  if (await createDelivery(record9)) await enqueueDelivery(ports2.deliveryQueue, id, nowMs());
  return id;
}

// lambdas/platform/net/safe-post.ts
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";

// lambdas/platform/net/safe-url.ts
import { isIP as isIP2 } from "node:net";

// lambdas/platform/net/address-policy.ts
import ipaddr from "ipaddr.js";
var METADATA_ADDRESSES = /* @__PURE__ */ new Set(["169.254.169.254", "fd00:ec2::254", "100.100.100.200"]);
var GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");
function checkAddress(address, options = {}) {
  let parsed;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return { allowed: false, reason: `'${address}' is not an IP address` };
  }
  const normalized = parsed.toString();
  if (METADATA_ADDRESSES.has(normalized)) return { allowed: false, reason: `${normalized} is a cloud metadata address` };
  const range = parsed.range();
  if (range === "loopback" && options.allowLoopback) return { allowed: true };
  if (parsed.kind() === "ipv4") {
    return range === "unicast" ? { allowed: true } : { allowed: false, reason: `${normalized} is a ${describe(range)} address` };
  }
  const v6 = parsed;
  if (range !== "unicast") {
    if (range === "ipv4Mapped") return { allowed: false, reason: `${normalized} is an IPv4-mapped address (${v6.toIPv4Address().toString()})` };
    return { allowed: false, reason: `${normalized} is a ${describe(range)} address` };
  }
  if (!v6.match(GLOBAL_UNICAST_V6)) return { allowed: false, reason: `${normalized} is not a global unicast IPv6 address` };
  return { allowed: true };
}
function describe(range) {
  const names = {
    private: "private",
    loopback: "loopback",
    linkLocal: "link-local",
    carrierGradeNat: "carrier-grade NAT (100.64.0.0/10)",
    multicast: "multicast",
    broadcast: "broadcast",
    unspecified: "unspecified",
    reserved: "reserved",
    uniqueLocal: "unique-local",
    rfc6052: "NAT64 (64:ff9b::/96)",
    rfc6145: "IPv4-translated",
    "6to4": "6to4",
    teredo: "Teredo",
    as112: "AS112",
    amt: "AMT",
    benchmarking: "benchmarking",
    orchid2: "ORCHIDv2",
    droneRemoteIdProtocolEntityTags: "reserved"
  };
  return names[range] ?? `non-public (${range})`;
}

// lambdas/platform/net/resolver.ts
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
var systemResolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);
async function resolveHost(resolve3, host) {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (isIP(bare)) return [bare];
  return resolve3(bare);
}

// lambdas/platform/net/settings.ts
var DEFAULT_TIMEOUT_MS = 1e4;
var loopbackAllowed = () => config().WEBHOOKS_ALLOW_LOOPBACK && config().DEPLOYMENT === "local";

// lambdas/platform/net/safe-url.ts
var UnsafeUrlError = class extends Error {
  constructor(message) {
    super(message);
    this.name = "UnsafeUrlError";
  }
};
var MAX_URL_LENGTH = 2048;
async function checkUrl(net2, raw) {
  if (raw.length > MAX_URL_LENGTH) throw new UnsafeUrlError(`URL is longer than ${MAX_URL_LENGTH} characters`);
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError("URL is not a valid absolute URL");
  }
  const allowLoopback = loopbackAllowed();
  if (url.protocol !== "https:" && !(allowLoopback && url.protocol === "http:")) throw new UnsafeUrlError("URL must use https");
  if (url.username || url.password) throw new UnsafeUrlError("URL must not contain credentials (user@host)");
  if (!url.hostname) throw new UnsafeUrlError("URL has no host");
  let addresses;
  try {
    addresses = await resolveHost(net2.resolve, url.hostname);
  } catch (error) {
    throw new UnsafeUrlError(`host ${url.hostname} could not be resolved (${error.code ?? error.message})`);
  }
  if (addresses.length === 0) throw new UnsafeUrlError(`host ${url.hostname} has no addresses`);
  for (const address2 of addresses) {
    const verdict = checkAddress(address2, { allowLoopback });
    if (!verdict.allowed) throw new UnsafeUrlError(`URL host must resolve to a public address: ${verdict.reason}`);
  }
  const address = addresses[0];
  if (url.protocol === "http:" && checkAddress(address, {}).allowed) throw new UnsafeUrlError("URL must use https");
  return { url, address, family: isIP2(address) === 6 ? 6 : 4 };
}

// lambdas/platform/net/safe-post.ts
import { rootCertificates } from "node:tls";
async function safePost(net2, rawUrl, body, headers2) {
  let checked;
  try {
    checked = await checkUrl(net2, rawUrl);
  } catch (error) {
    if (error instanceof UnsafeUrlError) return { ok: false, statusCode: null, error: error.message, unsafe: true };
    throw error;
  }
  const timeout = net2.timeoutMs;
  const pinned = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: checked.address, family: checked.family }]);
    else callback(null, checked.address, checked.family);
  };
  const testCa = net2.trustedCa;
  try {
    const statusCode = await post(new URL(checked.url), body, headers2, pinned, timeout, testCa ? [...rootCertificates, testCa] : void 0);
    const ok2 = statusCode >= 200 && statusCode < 300;
    return { ok: ok2, statusCode, error: null, unsafe: false };
  } catch (error) {
    return { ok: false, statusCode: null, error: describeNetworkError(error, timeout), unsafe: false };
  }
}
var RequestTimeout = class extends Error {
  name = "TimeoutError";
};
function post(url, body, headers2, lookup2, timeoutMs, ca) {
  return new Promise((resolve3, reject) => {
    const send2 = url.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send2(url, { method: "POST", headers: { ...headers2, "content-length": String(Buffer.byteLength(body)) }, lookup: lookup2, agent: false, ...ca ? { ca } : {} }, (res) => {
      resolve3(res.statusCode ?? 0);
      let read = 0;
      res.on("data", (chunk) => {
        read += chunk.length;
        if (read > 64 * 1024) res.destroy();
      });
      res.on("error", () => void 0);
    });
    const timer = setTimeout(() => req.destroy(new RequestTimeout(`timed out after ${timeoutMs} ms`)), timeoutMs);
    req.on("close", () => clearTimeout(timer));
    req.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(body);
  });
}
function describeNetworkError(error, timeoutMs) {
  const e2 = error;
  if (e2.name === "TimeoutError") {
    return `timed out after ${timeoutMs / 1e3} s`;
  }
  const code = e2.code ?? e2.cause?.code;
  const message = e2.cause?.message ?? e2.message;
  return code ? `${code}: ${message}` : message;
}

// lambdas/webhooks/signature.ts
import { createHmac as createHmac2 } from "node:crypto";
var computeSignature = (body, secret, timestamp) => createHmac2("sha256", secret).update(`${timestamp}.`).update(body).digest("hex");
var signatureHeader = (body, secret, timestamp) => `t=${timestamp},v1=${computeSignature(body, secret, timestamp)}`;

// lambdas/webhooks/send.ts
var USER_AGENT = "Service-Webhooks/1.0";
function deliveryHeaders(input, timestamp) {
  return {
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    "x-service-signature": signatureHeader(input.body, input.secret, timestamp),
    "x-service-event": input.eventType,
    "x-service-event-id": input.eventId,
    "x-service-delivery-id": input.deliveryId,
    "x-service-attempt": String(input.attempt),
    "x-service-timestamp": String(timestamp)
  };
}
async function sendSigned(net2, input) {
  return safePost(net2, input.url, input.body, deliveryHeaders(input, nowUnix()));
}

// lambdas/webhooks/ping.ts
async function pingOrThrow(net2, url, secret) {
  const event = { id: newEventId(), type: "webhook.ping", api_version: API_VERSION, created_at: nowIso(), data: { challenge: randomHex(16) } };
  const deliveryId = deliveryIdFor(event.id, "ping");
  const attemptedAt = new Date(nowMs()).toISOString();
  const outcome = await sendSigned(net2, { url, secret, body: JSON.stringify(event), eventType: event.type, eventId: event.id, deliveryId, attempt: 1 });
  if (!outcome.ok) {
    const message = outcome.statusCode !== null ? `The webhook.ping to the URL was answered ${outcome.statusCode}; the endpoint must answer 2xx` : outcome.unsafe ? `The webhook.ping was not sent: ${outcome.error}` : `The webhook.ping to the URL did not complete: ${outcome.error}`;
    throw new InvalidInput({ error: "ping_failed", message, status_code: outcome.statusCode, underlying_error: outcome.statusCode === null ? outcome.error : null });
  }
  return { event, deliveryId, attemptedAt, statusCode: outcome.statusCode };
}
async function recordPing(organizationId, webhookId, ping) {
  const at = nowIso();
  await createDelivery({
    id: ping.deliveryId,
    organization_id: organizationId,
    kind: "webhook",
    webhook_id: webhookId,
    callback_url: null,
    callback_secret: null,
    event_id: ping.event.id,
    event_type: ping.event.type,
    body: JSON.stringify(ping.event),
    state: "succeeded",
    attempt_count: 1,
    attempts: [{ attempt: 1, attempted_at: ping.attemptedAt, status_code: ping.statusCode, error: null }],
    next_attempt_at: null,
    exhausted_reason: null,
    lease_until: null,
    created_at: ping.attemptedAt,
    updated_at: at
  });
}

// lambdas/webhooks/url-safety.ts
async function assertSafeUrl(net2, url) {
  try {
    await checkUrl(net2, url);
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw new InvalidInput(`Invalid url: ${error.message}`);
    throw error;
  }
}

// lambdas/webhooks/endpoints.ts
function toPublic(record9) {
  return {
    id: record9.id,
    url: record9.url,
    description: record9.description ?? null,
    events: record9.events,
    is_active: record9.is_active,
    verified_at: record9.verified_at ?? null,
    last_success_at: record9.last_success_at ?? null,
    last_failure_at: record9.last_failure_at ?? null,
    consecutive_failures: record9.consecutive_failures ?? 0,
    disabled_at: record9.disabled_at ?? null,
    created_at: record9.created_at,
    updated_at: record9.updated_at
  };
}
function normalizeEvents(events) {
  if (events === void 0) return [...DEFAULT_EVENT_TYPES];
  if (events.length === 0) throw new InvalidInput("events must list at least one event type");
  const unknown7 = events.filter((e2) => !SUBSCRIBABLE_EVENT_TYPES.includes(e2));
  if (unknown7.length) throw new InvalidInput(`Unknown event type(s): ${unknown7.join(", ")}. Valid: ${SUBSCRIBABLE_EVENT_TYPES.join(", ")}`);
  return [...new Set(events)];
}
async function createEndpoint(ports2, organizationId, input) {
  const events = normalizeEvents(input.events);
  await assertSafeUrl(ports2.net, input.url);
  const secret = randomHex(32);
  const ping = await pingOrThrow(ports2.net, input.url, secret);
  const at = nowIso();
  const id = newId();
  const record9 = {
    id,
    organization_id: organizationId,
    url: input.url,
    description: input.description ?? null,
    events,
    is_active: true,
    verified_at: at,
    // The registration ping is a delivery the endpoint answered 2xx.
    last_success_at: at,
    last_failure_at: null,
    consecutive_failures: 0,
    disabled_at: null,
    created_at: at,
    updated_at: at,
    // Sealed after the ping: a refused registration costs no KMS call. The plaintext is returned once, below.
    secret: await ports2.sealer.seal(secret, webhookSecretContext(organizationId, id))
  };
  await putEndpoint(record9);
  await recordPing(organizationId, record9.id, ping);
  logger.info("webhook endpoint created", { webhook_id: record9.id, events });
  return { webhook: toPublic(record9), secret };
}
async function listEndpointsOf(organizationId) {
  return (await listEndpoints(organizationId)).map(toPublic);
}
async function ownEndpoint(organizationId, id) {
  const record9 = isUuid(id) ? await getEndpoint(id) : null;
  if (!record9 || record9.organization_id !== organizationId) throw new NotFound("Webhook endpoint not found");
  return record9;
}
async function getEndpointOf(organizationId, id) {
  return toPublic(await ownEndpoint(organizationId, id));
}
async function updateEndpoint(ports2, organizationId, id, patch) {
  return (await updateEndpointWithPing(ports2, organizationId, id, patch)).webhook;
}
async function updateEndpointWithPing(ports2, organizationId, id, patch) {
  const current3 = await ownEndpoint(organizationId, id);
  const at = nowIso();
  const fields = { updated_at: at };
  if (patch.events !== void 0) fields.events = normalizeEvents(patch.events);
  if (patch.description !== void 0) fields.description = patch.description;
  let ping = null;
  if (patch.url !== void 0 && patch.url !== current3.url) {
    await assertSafeUrl(ports2.net, patch.url);
    ping = await pingOrThrow(ports2.net, patch.url, await openStored(ports2, current3.secret, webhookSecretContext(organizationId, id)));
    fields.url = patch.url;
    Object.assign(fields, { verified_at: at, last_success_at: at, consecutive_failures: 0 });
  }
  if (patch.is_active === true) {
    Object.assign(fields, { is_active: true, consecutive_failures: 0, disabled_at: null });
  } else if (patch.is_active === false) {
    fields.is_active = false;
  }
  const updated = await updateEndpointFields(id, organizationId, fields);
  if (!updated) throw new NotFound("Webhook endpoint not found");
  if (ping) await recordPing(organizationId, id, ping);
  return { webhook: toPublic(updated), ping: ping && { status_code: ping.statusCode, delivery_id: ping.deliveryId, attempted_at: ping.attemptedAt } };
}
async function deleteEndpoint(organizationId, id) {
  await ownEndpoint(organizationId, id);
  if (!await deleteEndpointItem(id, organizationId)) throw new NotFound("Webhook endpoint not found");
  const at = nowIso();
  for (const deliveryId of await pendingDeliveryIdsOfWebhook(id)) await markExhausted(deliveryId, "endpoint deleted", at);
}
async function listDeliveries(organizationId, id, page2) {
  await ownEndpoint(organizationId, id);
  const { items, nextCursor } = await listDeliveriesOfWebhook(organizationId, id, page2.limit, page2.cursor);
  return {
    data: items.map((d) => ({
      id: d.id,
      webhook_id: id,
      event_id: d.event_id,
      event_type: d.event_type,
      state: d.state,
      attempt_count: d.attempt_count,
      attempts: d.attempts,
      next_attempt_at: d.next_attempt_at ?? null,
      exhausted_reason: d.exhausted_reason ?? null,
      created_at: d.created_at,
      updated_at: d.updated_at
    })),
    next_cursor: nextCursor
  };
}

// lambdas/events/events.ts
function buildEvent(input) {
  return { id: input.id ?? newEventId(), type: input.type, api_version: API_VERSION, created_at: nowIso(), data: input.data };
}
async function publishEvent(ports2, organizationId, event) {
  await insertItem("Event", {
    pk: `EVENT#${event.id}`,
    sk: "META",
    gsi1pk: `ORG#${organizationId}#EVENTS`,
    gsi1sk: `${event.created_at}#${event.id}`,
    organization_id: organizationId,
    ...event
  });
  await fanOutToEndpoints(ports2, organizationId, event);
}

// lambdas/events/outbox.ts
import { GetCommand as GetCommand7, UpdateCommand as UpdateCommand8 } from "@aws-sdk/lib-dynamodb";
var PREFIX = "outbox_";
var INDEX_PK = "OUTBOX";
function outboxFields(key4, entries2, at) {
  if (entries2.length === 0) return {};
  const fields = { gsi3pk: INDEX_PK, gsi3sk: `${at}#${key4.pk}#${key4.sk}` };
  for (const entry of entries2) fields[`${PREFIX}${entry.event.id}`] = entry;
  return fields;
}
var hasOutbox = (item) => Object.keys(item).some((k) => k.startsWith(PREFIX));
async function flushOutbox(ports2, key4, item) {
  const current3 = item ?? (await db().send(new GetCommand7({ TableName: tableName(), Key: key4, ConsistentRead: true }))).Item;
  if (!current3) return 0;
  const names = Object.keys(current3).filter((k) => k.startsWith(PREFIX));
  if (names.length === 0) return 0;
  for (const name of names) {
    const entry = current3[name];
    await publishEvent(ports2, entry.organization_id, entry.event);
    if (entry.callback) await enqueueCallback(ports2, { organizationId: entry.organization_id, url: entry.callback.url, secret: entry.callback.secret, event: entry.event });
  }
  const aliases = {};
  names.forEach((n, i) => aliases[`#ob${i}`] = n);
  const out = await db().send(
    new UpdateCommand8({
      TableName: tableName(),
      Key: key4,
      UpdateExpression: `REMOVE ${Object.keys(aliases).join(", ")}, gsi3pk, gsi3sk`,
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeNames: aliases,
      ReturnValues: "ALL_NEW"
    })
  ).catch((error) => {
    if (isConditionFailed(error)) return { Attributes: void 0 };
    throw error;
  });
  if (out.Attributes && hasOutbox(out.Attributes)) {
    await db().send(
      new UpdateCommand8({
        TableName: tableName(),
        Key: key4,
        UpdateExpression: "SET gsi3pk = :pk, gsi3sk = :sk",
        ExpressionAttributeValues: { ":pk": INDEX_PK, ":sk": `${(/* @__PURE__ */ new Date()).toISOString()}#${key4.pk}#${key4.sk}` }
      })
    );
  }
  return names.length;
}
async function drainOutbox(ports2, olderThanIso) {
  let items = 0;
  let events = 0;
  const found = [];
  for await (const item of queryItems({ IndexName: "gsi3", KeyConditionExpression: "gsi3pk = :pk AND gsi3sk < :before", ExpressionAttributeValues: { ":pk": INDEX_PK, ":before": olderThanIso } })) {
    found.push(item);
  }
  for (const item of found) {
    try {
      events += await flushOutbox(ports2, { pk: String(item.pk), sk: String(item.sk) });
      items++;
    } catch (error) {
      logger.error("outbox item could not be published; the next drain retries it", { pk: item.pk, error });
    }
  }
  if (events) logger.warn("published events a crash had left unpublished", { items, events });
  return { items, events };
}

// lambdas/uploads/upload.ts
function toPublicUpload(upload) {
  return {
    id: upload.id,
    user_id: upload.user_id,
    organization_id: upload.organization_id,
    original_filename: upload.original_filename,
    file_size_bytes: upload.file_size_bytes,
    status: upload.status === "charging" ? "ready_for_processing" : upload.status,
    valid_row_count: upload.valid_row_count,
    valid_number_count: upload.valid_number_count,
    invalid_row_count: upload.invalid_row_count,
    credits_required: upload.credits_required,
    credits_charged: upload.credits_charged,
    credits_refunded: upload.credits_refunded,
    source: upload.source,
    api_key_id: upload.api_key_id,
    skip_mobile_lookup: upload.skip_mobile_lookup,
    validation_tier: upload.validation_tier,
    identity_enabled: upload.identity_enabled,
    result_summary: upload.result_summary,
    export_count: upload.export_count,
    last_exported_at: upload.last_exported_at,
    processed_available: upload.processed_available,
    // Generated on demand from the processed file, so available exactly when it is.
    processed_filtered_available: upload.processed_available,
    error_message: upload.error_message,
    exceeded_daily_limit: upload.exceeded_daily_limit,
    created_at: upload.created_at,
    updated_at: upload.updated_at
  };
}
var keys = {
  original: (u) => `uploads/${u.organization_id}/${u.id}/original.csv`,
  chunk: (u, n) => `uploads/${u.organization_id}/${u.id}/chunks/${n}.json`,
  chunkResult: (u, n) => `uploads/${u.organization_id}/${u.id}/chunks/${n}.result.json`,
  processed: (u) => `uploads/${u.organization_id}/${u.id}/processed.csv`,
  /** Rows, numbers and record spans computed at create (work-file.ts). */
  work: (u) => `uploads/${u.organization_id}/${u.id}/work.json`,
  /** Where each record sits in the original, computed at create (work-file.ts). */
  layout: (u) => `uploads/${u.organization_id}/${u.id}/layout.json`,
  /** Which distinct item each cell is, written by prepare (pipeline/cell-items.ts). */
  cellItems: (u) => `uploads/${u.organization_id}/${u.id}/cell-items.bin`,
  results: (u) => `uploads/${u.organization_id}/${u.id}/results.json`,
  slice: (u, name) => `uploads/${u.organization_id}/${u.id}/slices/${name}.csv`
};

// lambdas/uploads/upload-repository.ts
import { GetCommand as GetCommand8, UpdateCommand as UpdateCommand9 } from "@aws-sdk/lib-dynamodb";

// lambdas/platform/status-transition.ts
import { DeleteCommand as DeleteCommand3 } from "@aws-sdk/lib-dynamodb";
async function transitionStatus(key4, from, to, fields, at, remove = []) {
  const clause = setClause(fields);
  const names = { "#status": "status", ...clause.names };
  const values = { ":to": to, ":at": at, ...clause.values };
  const sets = ["#status = :to", "updated_at = :at", ...clause.sets];
  const froms = from.map((status, i) => {
    values[`:from${i}`] = status;
    return `:from${i}`;
  });
  return updateReturning({
    Key: key4,
    UpdateExpression: `SET ${sets.join(", ")}${remove.length ? ` REMOVE ${remove.join(", ")}` : ""}`,
    ConditionExpression: `#status IN (${froms.join(", ")})`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values
  });
}
async function deleteIfStatus(key4, status) {
  return conditionalWrite(
    () => db().send(
      new DeleteCommand3({
        TableName: tableName(),
        Key: key4,
        ConditionExpression: "#status = :status",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: { ":status": status }
      })
    )
  );
}

// lambdas/uploads/upload-repository.ts
import * as z17 from "zod";
var CREATE_BOUND_MS = 15 * 6e4;
var uploadKey = (id) => ({ pk: `UPLOAD#${id}`, sk: "META" });
var uploadItemKey = uploadKey;
var nullableNumber = z17.number().nullable();
var resultSummary = z17.looseObject({
  format: z17.enum(["identity", "answer_intent"]),
  total_rows: z17.number(),
  status_counts: z17.record(z17.string(), z17.number()),
  identity_counts: z17.record(z17.string(), z17.number()),
  has_answer_intent_column: z17.boolean(),
  has_identity_column: z17.boolean(),
  simulated: z17.boolean()
});
var uploadSchema = z17.looseObject({
  id: z17.string(),
  user_id: z17.string(),
  organization_id: z17.string(),
  original_filename: z17.string(),
  file_size_bytes: nullableNumber,
  status: z17.enum(["charging", "pending_mapping", "validating", "validation_failed", "awaiting_confirmation", "ready_for_processing", "processing", "completed", "failed", "cancelled"]),
  valid_row_count: nullableNumber,
  valid_number_count: nullableNumber,
  invalid_row_count: nullableNumber,
  total_rows: z17.number(),
  credits_required: nullableNumber,
  credits_charged: nullableNumber,
  credits_refunded: nullableNumber,
  source: z17.enum(["web", "api", "api_pool"]),
  api_key_id: z17.string().nullable(),
  skip_mobile_lookup: z17.boolean(),
  validation_tier: z17.enum(["standard", "max"]),
  identity_enabled: z17.boolean(),
  phone_columns: z17.array(z17.string()),
  name_columns: z17.looseObject({ full: z17.string().optional(), first: z17.string().optional(), last: z17.string().optional() }),
  result_summary: resultSummary.nullable(),
  export_count: z17.number(),
  last_exported_at: z17.string().nullable(),
  processed_available: z17.boolean(),
  error_message: z17.string().nullable(),
  exceeded_daily_limit: z17.boolean().nullable(),
  created_at: z17.string(),
  updated_at: z17.string()
});
var toRecord = (item) => readEntity("Upload", uploadSchema, item);
var WATCH_PK = "UPLOAD#WATCH";
var watchKeys = (id, staleAt) => staleAt === null ? {} : { gsi2pk: WATCH_PK, gsi2sk: `${staleAt}#${id}` };
async function insertUpload(upload, staleAt = upload.status === "charging" ? new Date(Date.parse(upload.created_at) + CREATE_BOUND_MS).toISOString() : null) {
  return insertItem("Upload", {
    ...uploadKey(upload.id),
    gsi1pk: `ORG#${upload.organization_id}#UPLOADS`,
    gsi1sk: `${upload.created_at}#${upload.id}`,
    ...watchKeys(upload.id, staleAt),
    ...upload
  });
}
async function getUpload(id) {
  const out = await db().send(new GetCommand8({ TableName: tableName(), Key: uploadKey(id), ConsistentRead: true }));
  return toRecord(out.Item);
}
async function transitionUpload(id, from, to, fields, at, staleAt = null) {
  const watch = watchKeys(id, staleAt);
  return toRecord(await transitionStatus(uploadKey(id), from, to, { ...fields, ...watch }, at, staleAt === null ? ["gsi2pk", "gsi2sk"] : []) ?? void 0);
}
async function settleUpload(id) {
  await conditionalWrite(
    () => db().send(new UpdateCommand9({ TableName: tableName(), Key: uploadKey(id), UpdateExpression: "REMOVE gsi2pk, gsi2sk", ConditionExpression: "attribute_exists(pk)" }))
  );
}
async function claimStaleUploads(nowMs2, leaseMs, changedBeforeIso) {
  const onlyStale = changedBeforeIso === void 0;
  const found = [];
  for await (const item of queryItems({
    IndexName: "gsi2",
    KeyConditionExpression: onlyStale ? "gsi2pk = :pk AND gsi2sk < :now" : "gsi2pk = :pk",
    ExpressionAttributeValues: onlyStale ? { ":pk": WATCH_PK, ":now": new Date(nowMs2).toISOString() } : { ":pk": WATCH_PK }
  })) {
    if (changedBeforeIso === void 0 || String(item.updated_at) < changedBeforeIso) found.push(item);
  }
  const claimed = [];
  for (const item of found) {
    const id = String(item.id);
    const ok2 = await conditionalWrite(
      () => db().send(
        new UpdateCommand9({
          TableName: tableName(),
          Key: uploadKey(id),
          UpdateExpression: "SET gsi2sk = :next",
          ConditionExpression: "gsi2sk = :seen",
          ExpressionAttributeValues: { ":seen": item.gsi2sk, ":next": `${new Date(nowMs2 + leaseMs).toISOString()}#${id}` }
        })
      )
    );
    if (ok2) claimed.push(toRecord(item));
  }
  return claimed;
}
async function deleteChargingUpload(id) {
  await deleteIfStatus(uploadKey(id), "charging");
}
async function recordExport(id, at) {
  await db().send(
    new UpdateCommand9({
      TableName: tableName(),
      Key: uploadKey(id),
      UpdateExpression: "ADD export_count :one SET last_exported_at = :at",
      ExpressionAttributeValues: { ":one": 1, ":at": at }
    })
  );
}
async function listUploads(orgId, limit, cursor) {
  return queryPage({
    scope: cursorScope("uploads", orgId),
    index: "gsi1",
    partition: `ORG#${orgId}#UPLOADS`,
    limit,
    cursor,
    // Internal `charging` records are not uploads yet.
    visible: (item) => item.status !== "charging",
    map: (item) => toRecord(item)
  });
}

// lambdas/uploads/work-file.ts
function spanOf(record9) {
  const span = { start: record9.start, end: record9.end, eol: record9.eol, width: record9.fields.length };
  if (record9.fields.some(startsLikeFormula)) span.formulaFields = record9.fields;
  return span;
}
function layoutOf(parsed) {
  const [header, ...rows] = parsed.records;
  return { bom: parsed.bom, header: header ? spanOf(header) : { start: 0, end: 0, eol: "", width: 0 }, rows: rows.map(spanOf) };
}
var EOL_CODE = { "\r\n": "c", "\n": "n", "\r": "r", "": "-" };
var EOL_OF = { c: "\r\n", n: "\n", r: "\r", "-": "" };
var rowCount = (layout) => layout.start.length;
function spanAt(layout, i) {
  const span = { start: layout.start[i], end: layout.end[i], eol: EOL_OF[layout.eol[i]], width: layout.widths[i] ?? layout.width };
  const formula = layout.formulas[i];
  if (formula) span.formulaFields = formula;
  return span;
}
function storedLayoutOf(layout) {
  const n = layout.rows.length;
  const start = new Array(n);
  const end = new Array(n);
  let eol = "";
  const widths = {};
  const formulas = {};
  const width = layout.header.width;
  for (let i = 0; i < n; i++) {
    const span = layout.rows[i];
    start[i] = span.start;
    end[i] = span.end;
    eol += EOL_CODE[span.eol];
    if (span.width !== width) widths[i] = span.width;
    if (span.formulaFields) formulas[i] = span.formulaFields;
  }
  return { bom: layout.bom, header: layout.header, width, start, end, eol, widths, formulas };
}
function storedRowsOf(rows, phoneColumns) {
  const n = rows.length;
  const numbers = new Array(n * phoneColumns);
  const names = rows.some((r) => r.name) ? new Array(n) : null;
  for (let i = 0; i < n; i++) {
    const row = rows[i];
    for (let c = 0; c < phoneColumns; c++) {
      const value = row.numbers[c];
      numbers[i * phoneColumns + c] = value === void 0 ? "" : value;
    }
    if (names) names[i] = row.name ?? 0;
  }
  return { numbers, names };
}
function serializeWork(work, phoneColumns) {
  const { numbers, names } = storedRowsOf(work.rows, phoneColumns);
  return {
    work: [JSON.stringify({ v: 2 }), JSON.stringify(numbers), JSON.stringify(names), JSON.stringify(work.firstCells ?? null)].join("\n"),
    layout: JSON.stringify(storedLayoutOf(work.layout))
  };
}
function line(bytes, n) {
  let from = 0;
  for (let i = 0; i < n; i++) from = bytes.indexOf(10, from) + 1;
  const nl = bytes.indexOf(10, from);
  return bytes.toString("utf8", from, nl === -1 ? bytes.length : nl);
}
var isV1 = (bytes) => bytes.indexOf(10) === -1;
function parseV1(bytes) {
  const s = JSON.parse(bytes.toString("utf8"));
  if (s.v !== 1) throw new Error(`work file version ${String(s.v)} is not known`);
  return s;
}
function checkV2(bytes) {
  const { v } = JSON.parse(line(bytes, 0));
  if (v !== 2) throw new Error(`work file version ${String(v)} is not known`);
}
function readLayout(bytes) {
  return JSON.parse(bytes.toString("utf8"));
}
function readWorkLayout(work) {
  return isV1(work) ? parseV1(work) : null;
}
function readWorkRows(bytes) {
  if (isV1(bytes)) {
    const { numbers, names } = parseV1(bytes);
    return { numbers, names };
  }
  checkV2(bytes);
  return { numbers: JSON.parse(line(bytes, 1)), names: JSON.parse(line(bytes, 2)) };
}
function readFirstCells(bytes) {
  if (isV1(bytes)) return parseV1(bytes).firstCells;
  checkV2(bytes);
  return JSON.parse(line(bytes, 3)) ?? void 0;
}
function parseWork(work, layout, phoneColumns) {
  const { numbers, names } = readWorkRows(work);
  const n = rowCount(layout);
  const rows = new Array(n);
  const spans = new Array(n);
  for (let i = 0; i < n; i++) {
    const row = numbers.slice(i * phoneColumns, (i + 1) * phoneColumns);
    const name = names?.[i];
    rows[i] = name ? { numbers: row, name } : { numbers: row };
    spans[i] = spanAt(layout, i);
  }
  return { rows, layout: { bom: layout.bom, header: layout.header, rows: spans }, firstCells: readFirstCells(work) };
}
var hasUtf8Bom = (bytes) => bytes[0] === 239 && bytes[1] === 187 && bytes[2] === 191;

// lambdas/uploads/create-upload.ts
var utf8 = new TextDecoder("utf-8", { fatal: true });
function readCsv(bytes) {
  const text = decodeCsv(bytes);
  try {
    return { text, ...parseCsv(text) };
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new InvalidInput(`The file is not valid CSV: ${error.message}`);
    throw error;
  }
}
function decodeCsv(bytes) {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new InvalidInput("The file is not valid UTF-8 text; save the CSV as UTF-8 and upload it again");
  }
}
function planCsv(csv, mapping, source) {
  const parsed = readCsv(csv);
  const [header, ...rows] = parsed.records;
  if (!header) throw new InvalidInput("The file is empty; it needs a header row and at least 100 numbers");
  const plan = planUpload(header.fields, rows.map((r) => r.fields), mapping, { minimum: source === "api_pool" ? 1 : void 0 });
  const layout = layoutOf(parsed);
  layout.bom ||= hasUtf8Bom(csv);
  return { ...plannedOf(plan), ...serializeWork({ rows: plan.rows, layout, firstCells: source === "api_pool" ? rows.map((r) => r.fields[0] ?? "") : void 0 }, mapping.phoneColumns.length) };
}
var plannedOf = (plan) => ({
  totalRows: plan.totalRows,
  validRowCount: plan.validRowCount,
  validNumberCount: plan.validNumberCount,
  invalidCount: plan.invalidCount,
  identity: plan.identity
});
async function createUpload(ports2, principal, input, uploadId = newId(), planned = planCsv(input.csv, input.mapping, input.source)) {
  const price = priceOf(planned.validNumberCount, input.tier);
  const at = nowIso();
  const record9 = {
    id: uploadId,
    user_id: principal.userId,
    organization_id: principal.organizationId,
    original_filename: input.filename,
    file_size_bytes: input.csv.length,
    status: "charging",
    valid_row_count: planned.validRowCount,
    valid_number_count: planned.validNumberCount,
    invalid_row_count: planned.invalidCount,
    total_rows: planned.totalRows,
    credits_required: input.source === "api_pool" ? 0 : price,
    credits_charged: null,
    credits_refunded: null,
    source: input.source,
    api_key_id: principal.apiKeyId,
    skip_mobile_lookup: input.skipMobileLookup,
    validation_tier: input.tier,
    identity_enabled: planned.identity,
    phone_columns: input.mapping.phoneColumns,
    name_columns: { full: input.mapping.fullNameColumn, first: input.mapping.firstNameColumn, last: input.mapping.lastNameColumn },
    result_summary: null,
    export_count: 0,
    last_exported_at: null,
    processed_available: false,
    error_message: null,
    exceeded_daily_limit: false,
    created_at: at,
    updated_at: at
  };
  const bucket2 = filesBucket();
  await Promise.all([
    putObject(bucket2, keys.original(record9), input.csv, "text/csv"),
    putObject(bucket2, keys.work(record9), planned.work, "application/json"),
    putObject(bucket2, keys.layout(record9), planned.layout, "application/json"),
    insertUpload(record9)
  ]);
  const amount = record9.credits_required ?? 0;
  try {
    await debit(record9.organization_id, `upload:${record9.id}`, amount, { reason: `upload (${input.tier})`, resourceId: record9.id });
  } catch (error) {
    if (error instanceof InsufficientCreditsError) {
      await deleteChargingUpload(record9.id);
      throw new InsufficientCredits(`Insufficient credits: this upload needs ${amount} credits and the balance is ${error.available}`);
    }
    throw error;
  }
  crashPoint("upload.after-charge");
  const ready = await becomeReady(ports2, record9, amount);
  crashPoint("upload.after-ready");
  await ports2.workflow(record9.id);
  return ready;
}
var READY_BOUND_MS = 5 * 6e4;
async function becomeReady(ports2, record9, amount) {
  const at = nowIso();
  const key4 = uploadItemKey(record9.id);
  const entries2 = record9.source === "api_pool" ? [] : [
    {
      organization_id: record9.organization_id,
      event: buildEvent({
        type: "upload.created",
        id: `evt_${sha256Hex(`${record9.id}:created`).slice(0, 32)}`,
        data: {
          upload: {
            id: record9.id,
            source: record9.source,
            status: "ready_for_processing",
            original_filename: record9.original_filename,
            total_rows: record9.total_rows,
            valid_row_count: record9.valid_row_count,
            valid_number_count: record9.valid_number_count,
            organization_id: record9.organization_id,
            created_at: record9.created_at
          }
        }
      })
    }
  ];
  const staleAt = new Date(Date.parse(at) + READY_BOUND_MS).toISOString();
  const ready = await transitionUpload(record9.id, ["charging"], "ready_for_processing", { credits_charged: amount, ...outboxFields(key4, entries2, at) }, at, staleAt);
  if (ready && entries2.length) await flushOutbox(ports2, key4);
  return ready ?? await getUpload(record9.id) ?? record9;
}
var synthesizedFilename = () => `api_upload_${randomHex(8)}.csv`;

// lambdas/uploads/results.ts
var UNKNOWN = { status: "Unknown", answerIntent: "Unknown", identity: null };
function classifyKey(e164, name, identity) {
  return identity ? `${e164}|${JSON.stringify(name ?? null)}` : e164;
}
var vocabularyFor = (identity) => identity ? TIERS : ANSWER_INTENTS;
function rankOf(status, identity) {
  const index = vocabularyFor(identity).indexOf(status);
  return index === -1 ? Number.MAX_SAFE_INTEGER : index;
}
function summarize(results, identity, simulated = false) {
  const statusCounts = Object.fromEntries(vocabularyFor(identity).map((v) => [v, 0]));
  const identityCounts = {};
  for (let i = 0; i < results.length; i++) {
    const r = results.at(i);
    statusCounts[r.best] = (statusCounts[r.best] ?? 0) + 1;
    if (identity) identityCounts[r.bestIdentity ?? "Unknown"] = (identityCounts[r.bestIdentity ?? "Unknown"] ?? 0) + 1;
  }
  return {
    format: identity ? "identity" : "answer_intent",
    total_rows: results.length,
    status_counts: statusCounts,
    identity_counts: identityCounts,
    has_answer_intent_column: true,
    has_identity_column: identity,
    simulated
  };
}
var ResultTable = class {
  constructor(columns, identity, cells, table2 = []) {
    this.columns = columns;
    this.identity = identity;
    this.cells = cells;
    this.table = table2;
    table2.forEach((c, i) => this.index.set(cellKey(c), i + 1));
  }
  columns;
  identity;
  cells;
  table;
  index = /* @__PURE__ */ new Map();
  get length() {
    return this.columns ? this.cells.length / this.columns : 0;
  }
  /** The code of a cell result, added to the table when new (at most 255 distinct results). */
  codeOf(cell) {
    if (!cell) return 0;
    const key4 = cellKey(cell);
    let code = this.index.get(key4);
    if (code === void 0) {
      if (this.table.length >= 255) throw new Error("more than 255 distinct cell results");
      this.table.push(cell);
      code = this.table.length;
      this.index.set(key4, code);
    }
    return code;
  }
  at(i) {
    if (i < 0 || i >= this.length) return void 0;
    const cells = new Array(this.columns);
    for (let c = 0; c < this.columns; c++) {
      const code = this.cells[i * this.columns + c];
      cells[c] = code ? this.table[code - 1] : null;
    }
    return { cells, ...bestOf(cells, this.identity) };
  }
};
var cellKey = (c) => `${c.status}|${c.answerIntent}|${c.identity ?? ""}`;
function bestOf(cells, identity) {
  let best = null;
  for (const cell of cells) if (cell && (!best || rankOf(cell.status, identity) < rankOf(best.status, identity))) best = cell;
  return { best: best?.status ?? "Unknown", bestIdentity: identity ? best?.identity ?? "Unknown" : null };
}
function cellResult(number16, named, answer, identity) {
  if (number16 === "") return null;
  if (number16 === null || !answer) return UNKNOWN;
  const band = identity ? named ? answer.identity ?? "Unknown" : "Unknown" : null;
  return { status: deriveStatus(answer.answerIntent, band), answerIntent: answer.answerIntent, identity: band };
}
function serializeResults(results) {
  return JSON.stringify({ v: 2, columns: results.columns, identity: results.identity, table: results.table, cells: Buffer.from(results.cells.buffer, results.cells.byteOffset, results.cells.byteLength).toString("base64") });
}
function parseResults(bytes) {
  const stored = JSON.parse(bytes.toString("utf8"));
  if (stored.v === void 0) return stored.rows;
  if (stored.v !== 2) throw new Error(`results file version ${String(stored.v)} is not known`);
  return new ResultTable(stored.columns, stored.identity, new Uint8Array(Buffer.from(stored.cells, "base64")), stored.table);
}

// lambdas/uploads/pool.ts
async function createPoolUpload(ports2, input) {
  const existing = await getUpload(input.uploadId);
  if (existing) {
    if (existing.status === "ready_for_processing" || existing.status === "processing") await ports2.workflow(existing.id);
    return existing;
  }
  const full = input.rows.some((r) => r.full_name);
  const split2 = input.rows.some((r) => r.first_name && r.last_name);
  const header = ["contact_id", "phone", ...full ? ["full_name"] : [], ...split2 ? ["first_name", "last_name"] : []];
  const lines = [
    csvLine(header),
    ...input.rows.map((r) => csvLine([r.contact_id, r.phone, ...full ? [r.full_name ?? ""] : [], ...split2 ? [r.first_name ?? "", r.last_name ?? ""] : []]))
  ];
  return createUpload(
    ports2,
    { organizationId: input.organizationId, userId: "00000000-0000-0000-0000-000000000000", apiKeyId: "contacts-pool" },
    {
      csv: Buffer.from(lines.join("\n") + "\n"),
      filename: `api_pool_${input.uploadId}.csv`,
      mapping: { phoneColumns: ["phone"], fullNameColumn: full ? "full_name" : void 0, firstNameColumn: !full && split2 ? "first_name" : void 0, lastNameColumn: !full && split2 ? "last_name" : void 0 },
      tier: input.tier,
      skipMobileLookup: input.skipMobileLookup,
      source: "api_pool"
    },
    input.uploadId
  );
}
async function poolContactIds(upload) {
  const stored = await getObject(filesBucket(), keys.work(upload));
  if (stored) {
    const ids = readFirstCells(stored);
    if (ids) return ids;
  }
  const original = await getObject(filesBucket(), keys.original(upload));
  if (!original) return [];
  const [, ...rows] = parseCsv(original.toString("utf8")).records;
  return rows.map((r) => r.fields[0] ?? "");
}
async function poolRowResults(upload) {
  const stored = await getObject(filesBucket(), keys.results(upload));
  return stored ? parseResults(stored) : [];
}

// lambdas/contacts/contact-repository.ts
import { DeleteCommand as DeleteCommand4, GetCommand as GetCommand9, QueryCommand as QueryCommand5, UpdateCommand as UpdateCommand10 } from "@aws-sdk/lib-dynamodb";
import * as z18 from "zod";
var contactKey = (id) => ({ pk: `CONTACT#${id}`, sk: "META" });
var contactItemKey = contactKey;
var byOrg = (orgId) => `ORG#${orgId}#CONTACTS`;
var byOrgStatus = (orgId, status) => `ORG#${orgId}#CONTACTS#${status}`;
var QUEUE_SHARDS = 8;
var queueShard = (contactId) => `CONTACTQ#${parseInt(contactId.slice(0, 2), 16) % QUEUE_SHARDS}`;
function indexKeys(contact) {
  return {
    gsi1pk: byOrg(contact.organization_id),
    gsi1sk: `${contact.created_at}#${contact.id}`,
    gsi2pk: byOrgStatus(contact.organization_id, contact.status),
    gsi2sk: `${contact.created_at}#${contact.id}`
  };
}
var contactSchema = z18.looseObject({
  id: z18.string(),
  organization_id: z18.string(),
  api_key_id: z18.string(),
  phone: z18.string(),
  properties: z18.record(z18.string(), z18.unknown()),
  status: z18.enum(["creating", "queued", "processing", "completed", "failed", "discarded"]),
  validation_tier: z18.enum(["standard", "max"]),
  credits_charged: z18.number(),
  batch_position: z18.number().nullable(),
  answer_intent: z18.enum(["Likely Answer", "Likely Call Screening", "Likely Voicemail", "Non-Mobile", "Unknown"]).nullable(),
  identity: z18.enum(["Very High", "High", "Medium", "Low", "Unknown"]).nullable(),
  error_message: z18.string().nullable(),
  callback_url: z18.string().nullable(),
  callback_secret: StoredSecretSchema.nullable(),
  pool_upload_id: z18.string().nullable(),
  created_at: z18.string(),
  updated_at: z18.string()
});
var toRecord2 = (item) => readEntity("Contact", contactSchema, item);
var RECOVERY_PK = "RECOVER#Contact";
async function insertContact(contact, staleAt) {
  return insertItem("Contact", { ...contactKey(contact.id), ...indexKeys(contact), gsi3pk: RECOVERY_PK, gsi3sk: `${staleAt}#${contact.id}`, ...contact });
}
async function deleteCreatingContact(id) {
  await deleteIfStatus(contactKey(id), "creating");
}
async function getContact(id) {
  const out = await db().send(new GetCommand9({ TableName: tableName(), Key: contactKey(id), ConsistentRead: true }));
  return toRecord2(out.Item);
}
async function transitionContact(contact, from, to, fields, at, remove = []) {
  return toRecord2(await transitionStatus(contactKey(contact.id), from, to, { ...fields, gsi2pk: byOrgStatus(contact.organization_id, to) }, at, remove) ?? void 0);
}
async function claimStaleCreating(nowMs2, leaseMs, createdBeforeIso) {
  const out = await db().send(
    new QueryCommand5({
      TableName: tableName(),
      IndexName: "gsi3",
      KeyConditionExpression: createdBeforeIso === void 0 ? "gsi3pk = :pk AND gsi3sk < :now" : "gsi3pk = :pk",
      ExpressionAttributeValues: createdBeforeIso === void 0 ? { ":pk": RECOVERY_PK, ":now": new Date(nowMs2).toISOString() } : { ":pk": RECOVERY_PK },
      Limit: 200
    })
  );
  const claimed = [];
  for (const item of out.Items ?? []) {
    if (createdBeforeIso !== void 0 && String(item.created_at) >= createdBeforeIso) continue;
    const id = String(item.id);
    const ok2 = await conditionalWrite(
      () => db().send(
        new UpdateCommand10({
          TableName: tableName(),
          Key: contactKey(id),
          UpdateExpression: "SET gsi3sk = :next",
          ConditionExpression: "gsi3sk = :seen AND #status = :creating",
          ExpressionAttributeNames: { "#status": "status" },
          ExpressionAttributeValues: { ":seen": item.gsi3sk, ":next": `${new Date(nowMs2 + leaseMs).toISOString()}#${id}`, ":creating": "creating" }
        })
      )
    );
    if (ok2) claimed.push(toRecord2(item));
  }
  return claimed;
}
async function setBatchPosition(id, position) {
  try {
    await db().send(
      new UpdateCommand10({
        TableName: tableName(),
        Key: contactKey(id),
        UpdateExpression: "SET batch_position = :p",
        ConditionExpression: "attribute_exists(pk) AND (attribute_not_exists(batch_position) OR batch_position = :null)",
        ExpressionAttributeValues: { ":p": position, ":null": null }
      })
    );
    return position;
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    return (await getContact(id))?.batch_position ?? position;
  }
}
async function listContacts(orgId, options) {
  return queryPage({
    scope: cursorScope("contacts", orgId, { status: options.status }),
    index: options.status ? "gsi2" : "gsi1",
    partition: options.status ? byOrgStatus(orgId, options.status) : byOrg(orgId),
    limit: options.limit,
    cursor: options.cursor,
    visible: (item) => item.status !== "creating",
    map: (item) => toRecord2(item)
  });
}
function queueIndexKeys(contact) {
  return { gsi3pk: queueShard(contact.id), gsi3sk: `${contact.created_at}#${contact.id}` };
}
async function readQueue(limitPerShard) {
  const entries2 = [];
  for (let shard = 0; shard < QUEUE_SHARDS; shard++) {
    const pk = `CONTACTQ#${shard}`;
    const indexed = await db().send(
      new QueryCommand5({ TableName: tableName(), IndexName: "gsi3", KeyConditionExpression: "gsi3pk = :pk", ExpressionAttributeValues: { ":pk": pk }, Limit: limitPerShard })
    );
    for (const item of indexed.Items ?? []) {
      entries2.push({ contact_id: String(item.id), organization_id: String(item.organization_id), created_at: String(item.created_at), shard: pk, sk: String(item.gsi3sk), legacy: false });
    }
    const legacy = await db().send(new QueryCommand5({ TableName: tableName(), KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": pk }, Limit: limitPerShard }));
    for (const item of legacy.Items ?? []) {
      entries2.push({ contact_id: String(item.contact_id), organization_id: String(item.organization_id), created_at: String(item.created_at), shard: pk, sk: String(item.sk), legacy: true });
    }
  }
  return entries2.sort((a, b) => a.created_at.localeCompare(b.created_at));
}
async function dequeue(entry) {
  if (entry.legacy) {
    await db().send(new DeleteCommand4({ TableName: tableName(), Key: { pk: entry.shard, sk: entry.sk } }));
    return;
  }
  await conditionalWrite(
    () => db().send(
      new UpdateCommand10({
        TableName: tableName(),
        Key: contactKey(entry.contact_id),
        UpdateExpression: "REMOVE gsi3pk, gsi3sk",
        ConditionExpression: "gsi3pk = :pk AND gsi3sk = :sk",
        ExpressionAttributeValues: { ":pk": entry.shard, ":sk": entry.sk }
      })
    )
  );
}

// lambdas/contacts/contact.ts
var MESSAGES = {
  queued: "Queued: results typically arrive within 24-48 hours.",
  processing: "Processing: the number is being classified."
};
var messageFor = (status) => MESSAGES[status] ?? null;
var maxTierCharge = (position) => position % 2 === 1 ? 2 : 1;
var tierCost = (tier, position) => tier === "max" ? maxTierCharge(position ?? 1) : 1;
function parseValidationTier(raw) {
  if (raw === void 0) return "standard";
  const value = raw.trim().toLowerCase();
  return value === "standard" || value === "max" ? value : null;
}
function nameFromProperties(properties) {
  const text = (key4) => {
    const value = properties[key4];
    return typeof value === "string" && value.trim() ? value.trim() : void 0;
  };
  const full = text("full_name") ?? text("fullName") ?? text("name");
  if (full) return { full };
  const first = text("first_name") ?? text("firstName");
  const last = text("last_name") ?? text("lastName");
  return first && last ? { first, last } : void 0;
}
function toV1(contact) {
  return { ...base2(contact), service_status: contact.status === "completed" ? contact.answer_intent : null };
}
function toV2(contact) {
  const done = contact.status === "completed" && contact.answer_intent !== null;
  const withIdentity = done && contact.identity !== null && contact.identity !== void 0;
  return {
    ...base2(contact),
    service_status: done ? deriveStatus(contact.answer_intent, contact.identity ?? null) : null,
    service_answer_intent: withIdentity ? contact.answer_intent : null,
    service_identity: withIdentity ? contact.identity : null
  };
}
function base2(contact) {
  const status = contact.status === "creating" ? "queued" : contact.status;
  return {
    id: contact.id,
    organization_id: contact.organization_id,
    phone: contact.phone,
    properties: contact.properties,
    status,
    error_message: contact.error_message,
    message: messageFor(status),
    validation_tier: contact.validation_tier,
    credits_charged: contact.credits_charged,
    created_at: contact.created_at,
    updated_at: contact.updated_at
  };
}

// lambdas/contacts/outcomes.ts
async function completeContact(ports2, contact, result) {
  const at = nowIso();
  const fields = { answer_intent: result.answerIntent, identity: result.identity, error_message: null };
  return endWithEvent(ports2, contact, ["processing"], "completed", fields, "contact.completed", at);
}
async function failContact(ports2, contact, message) {
  return endWithRefund(ports2, contact, ["queued", "processing"], "failed", message, "contact.failed");
}
async function discardContact(ports2, contact, message) {
  return endWithRefund(ports2, contact, ["queued", "processing"], "discarded", message, null);
}
async function endWithRefund(ports2, contact, from, to, message, eventType) {
  if (contact.credits_charged > 0) {
    await refund(contact.organization_id, `refund:contact:${contact.id}`, `contact:${contact.id}`, {
      reason: `contact ${to}`,
      resourceId: contact.id,
      amount: contact.credits_charged
    });
  }
  return endWithEvent(ports2, contact, from, to, { error_message: message }, eventType, nowIso());
}
async function endWithEvent(ports2, contact, from, to, fields, eventType, at) {
  const key4 = contactItemKey(contact.id);
  const outbox = [];
  if (eventType) {
    const after = { ...contact, ...fields, status: to, updated_at: at };
    const event = buildEvent({ type: eventType, data: contactEventData(after), id: contactEventId(contact.id, eventType) });
    const callback = contact.callback_url && contact.callback_secret ? { url: contact.callback_url, secret: contact.callback_secret } : null;
    outbox.push({ organization_id: contact.organization_id, event, callback });
  }
  const ended = await transitionContact(contact, from, to, { ...fields, ...outboxFields(key4, outbox, at) }, at);
  if (ended) crashPoint(`contact.after-${to}`);
  if (ended && outbox.length) await flushOutbox(ports2, key4);
  return ended;
}
function contactEventData(contact) {
  const tier = contact.status === "completed" && contact.answer_intent ? deriveStatus(contact.answer_intent, contact.identity) : null;
  return {
    contact: {
      ...toV1(contact),
      service_answer_intent: contact.status === "completed" ? contact.answer_intent : null,
      service_tier: tier,
      service_identity: contact.status === "completed" ? contact.identity : null
    }
  };
}
var contactEventId = (contactId, type) => `evt_${sha256Hex(`${contactId}:${type}`).slice(0, 32)}`;

// lambdas/contacts/pool-results.ts
var NO_RESULT = "No result could be produced for this number; its credits were refunded. You can submit it again.";
var PROCESSING_FAILED = "Processing failed on our side; its credits were refunded. Submit the contact again, or contact support with this contact id.";
async function handlePoolUploadFinished(ports2, upload, rows, contactIds) {
  const seen = /* @__PURE__ */ new Set();
  let completed = 0;
  let failed2 = 0;
  if (upload.status === "completed") {
    for await (const row of rows) {
      const contact = await getContact(row.contact_id);
      if (!contact || contact.pool_upload_id !== upload.id || seen.has(row.contact_id)) continue;
      seen.add(row.contact_id);
      if ("missing" in row) {
        if (await failContact(ports2, contact, NO_RESULT)) failed2++;
      } else if (await completeContact(ports2, contact, { answerIntent: row.answerIntent, identity: row.identity })) {
        completed++;
      }
    }
  }
  const reason = upload.status === "completed" ? NO_RESULT : PROCESSING_FAILED;
  for (const id of contactIds) {
    if (seen.has(id)) continue;
    const contact = await getContact(id);
    if (!contact || contact.pool_upload_id !== upload.id || contact.status !== "processing") continue;
    if (await failContact(ports2, contact, reason)) failed2++;
  }
  logger.info("contact pool finished", { upload_id: upload.id, completed, failed: failed2 });
  return { completed, failed: failed2 };
}

// lambdas/contacts/pool-settle.ts
async function settlePoolUpload(ports2, upload) {
  const ids = await poolContactIds(upload);
  const results = upload.status === "completed" ? await poolRowResults(upload) : [];
  const rows = upload.status === "completed" ? ids.map((contact_id, i) => {
    const cell = results.at(i)?.cells[0];
    return cell ? { contact_id, answerIntent: cell.answerIntent, identity: cell.identity, status: cell.status } : { contact_id, missing: true };
  }) : [];
  await handlePoolUploadFinished(ports2, upload, rows, ids);
  await settleUpload(upload.id);
}

// lambdas/uploads/sfn-workflow-starter.ts
import { SFNClient, StartExecutionCommand, ExecutionAlreadyExists } from "@aws-sdk/client-sfn";
function sfnWorkflowStarter(stateMachineArn) {
  let sfn = null;
  return async (uploadId) => {
    sfn ??= new SFNClient({});
    try {
      await sfn.send(new StartExecutionCommand({ stateMachineArn: stateMachineArn(), name: uploadId, input: JSON.stringify({ upload_id: uploadId }) }));
    } catch (error) {
      if (!(error instanceof ExecutionAlreadyExists) && error.name !== "ExecutionAlreadyExists") throw error;
    }
  };
}

// lambdas/webhooks/sqs-delivery-queue.ts
import { SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";

// lambdas/webhooks/retry-policy.ts
var MAX_ATTEMPTS3 = 6;
var RETRY_DELAYS_MS = [6e4, 3e5, 18e5, 72e5, 432e5];
var AUTO_DISABLE_AFTER_FAILURES = 20;
var MAX_QUEUE_DELAY_SECONDS = 900;
var isPermanentFailure = (statusCode) => statusCode === 410;
function nextAttemptAtMs(attemptsMade, lastAttemptAtMs) {
  if (attemptsMade >= MAX_ATTEMPTS3) return null;
  return lastAttemptAtMs + RETRY_DELAYS_MS[attemptsMade - 1];
}
var queueDelaySeconds = (dueAtMs, nowMs2) => Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil((dueAtMs - nowMs2) / 1e3)));

// lambdas/webhooks/sqs-delivery-queue.ts
var client3 = null;
function sqsDeliveryQueue(queueUrl) {
  return {
    async enqueue(deliveryId, dueAtMs) {
      client3 ??= new SQSClient({});
      const message = { delivery_id: deliveryId, due_at: new Date(dueAtMs).toISOString() };
      await client3.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message), DelaySeconds: queueDelaySeconds(dueAtMs, nowMs()) }));
    }
  };
}

// lambdas/platform/net/outbound.ts
var systemNet = () => ({ resolve: systemResolver, timeoutMs: DEFAULT_TIMEOUT_MS, trustedCa: null });

// lambdas/webhooks/kms-sealer.ts
import { EncryptCommand } from "@aws-sdk/client-kms";

// lambdas/webhooks/kms-client.ts
import { KMSClient } from "@aws-sdk/client-kms";
var client4 = null;
var kms = () => client4 ??= new KMSClient({});

// lambdas/webhooks/kms-sealer.ts
function kmsSecretSealer(keyId) {
  return {
    async seal(plaintext, context) {
      const out = await kms().send(new EncryptCommand({ KeyId: keyId(), Plaintext: Buffer.from(plaintext, "utf8"), EncryptionContext: { ...context } }));
      if (!out.CiphertextBlob) throw new Error("KMS Encrypt answered without a CiphertextBlob");
      return { v: 1, alg: "kms", ct: Buffer.from(out.CiphertextBlob).toString("base64") };
    }
  };
}

// lambdas/webhooks/kms-opener.ts
import { DecryptCommand } from "@aws-sdk/client-kms";
var UNOPENABLE = /* @__PURE__ */ new Set(["InvalidCiphertextException", "IncorrectKeyException", "InvalidKeyUsageException"]);
function kmsSecretOpener(keyId) {
  return {
    async open(sealed, context) {
      if (sealed.alg !== "kms") throw new SecretUnopenable(`a secret sealed with ${sealed.alg} cannot be opened with KMS`);
      try {
        const out = await kms().send(new DecryptCommand({ KeyId: keyId(), CiphertextBlob: Buffer.from(sealed.ct, "base64"), EncryptionContext: { ...context } }));
        if (!out.Plaintext) throw new Error("KMS Decrypt answered without Plaintext");
        return Buffer.from(out.Plaintext).toString("utf8");
      } catch (error) {
        const name = error.name ?? "";
        if (UNOPENABLE.has(name)) throw new SecretUnopenable(`KMS refused to open the secret: ${name}`);
        throw error;
      }
    }
  };
}

// lambdas/composition/aws.ts
var net = null;
var delivery = null;
var workflow = null;
var uploads = null;
var seal = null;
var open = null;
function awsNetPorts() {
  net ??= { net: systemNet() };
  return net;
}
function awsDeliveryPorts() {
  const url = config().WEBHOOK_QUEUE_URL;
  delivery ??= { ...awsNetPorts(), deliveryQueue: url ? sqsDeliveryQueue(url) : null };
  return delivery;
}
function awsWorkflowPorts() {
  workflow ??= { ...awsDeliveryPorts(), workflow: sfnWorkflowStarter(() => required("UPLOAD_STATE_MACHINE_ARN")) };
  return workflow;
}
function awsUploadPorts() {
  uploads ??= {
    ...awsWorkflowPorts(),
    settlePool: (upload) => settlePoolUpload(awsDeliveryPorts(), upload)
  };
  return uploads;
}
function awsSealPorts() {
  seal ??= { sealer: kmsSecretSealer(() => required("SECRETS_KMS_KEY_ARN")) };
  return seal;
}
function awsOpenPorts() {
  open ??= { opener: kmsSecretOpener(() => required("SECRETS_KMS_KEY_ARN")) };
  return open;
}

// lambdas/webhooks/handler.ts
var webhooksApi = (ports2) => apiHandler([
  operation(webhooksRoutes.create, async (ctx) => created(await createEndpoint(ports2, ctx.principal.organizationId, ctx.body))),
  operation(webhooksRoutes.list, async (ctx) => ok(await listEndpointsOf(ctx.principal.organizationId))),
  operation(webhooksRoutes.get, async (ctx) => ok(await getEndpointOf(ctx.principal.organizationId, ctx.params.webhook_id))),
  operation(webhooksRoutes.update, async (ctx) => ok(await updateEndpoint(ports2, ctx.principal.organizationId, ctx.params.webhook_id, ctx.body))),
  operation(webhooksRoutes.delete, async (ctx) => {
    await deleteEndpoint(ctx.principal.organizationId, ctx.params.webhook_id);
    return { status: 204 };
  }),
  operation(webhooksRoutes.deliveries, async (ctx) => ok(await listDeliveries(ctx.principal.organizationId, ctx.params.webhook_id, ctx.query)))
]);
var handler3 = webhooksApi({ ...awsNetPorts(), ...awsSealPorts(), ...awsOpenPorts() });

// lambdas/spam/limits.ts
var DEFAULT_INCLUDED_NUMBERS = 5;
function effectiveLimit(org) {
  const included = org.spam_included_numbers === void 0 ? DEFAULT_INCLUDED_NUMBERS : org.spam_included_numbers;
  if (included === null) return null;
  return Math.max(0, included + Math.max(0, org.spam_addon_numbers ?? 0));
}
function inLimitIds(ordered, limit) {
  return new Set((limit === null ? ordered : ordered.slice(0, limit)).map((n) => n.id));
}

// lambdas/spam/number-repository.ts
import { DeleteCommand as DeleteCommand5, GetCommand as GetCommand10, UpdateCommand as UpdateCommand11 } from "@aws-sdk/lib-dynamodb";
import * as z19 from "zod";
var numberKey = (id) => ({ pk: `SPAMNUM#${id}`, sk: "META" });
var numberItemKey = numberKey;
var guardKey = (orgId, e164) => ({ pk: `SPAMPHONE#${orgId}#${e164}`, sk: "META" });
var counterKey = (orgId) => ({ pk: `ORG#${orgId}`, sk: "SPAMNUMS#COUNT" });
var COUNT_STAMP = stampUpdate("SpamNumberCount");
var orgIndexKey = (orgId) => `ORG#${orgId}#SPAMNUMS`;
var VERIFIED_INDEX_PK = "SPAMNUM#VERIFIED";
var carrier = carrierSchema;
var testStatus = testStatusSchema;
var carrierStatusSchema = z19.looseObject({
  carrier,
  status: testStatus,
  spam_detected: z19.boolean().nullable(),
  spam_label: z19.string().nullable(),
  test_run_id: z19.string().nullable(),
  tested_at: z19.string(),
  captured_at: z19.string().nullable(),
  screenshot_key: z19.string().nullable(),
  screenshot_content_type: z19.string().nullable(),
  same_carrier_warning: z19.boolean(),
  simulated: z19.boolean()
});
var challengeSchema = z19.looseObject({
  method: z19.enum(["call", "sms"]),
  salt: z19.string(),
  code_hash: z19.string(),
  expires_at: z19.number(),
  attempts: z19.number(),
  last_sent_at: z19.number().nullable(),
  sends: z19.array(z19.number())
});
var numberSchema = z19.looseObject({
  id: z19.string(),
  organization_id: z19.string(),
  phone_number: z19.string(),
  region: z19.enum(["US", "CA"]),
  line_type: z19.string(),
  sms_capable: z19.boolean(),
  verified: z19.boolean(),
  verified_at: z19.string().nullable(),
  carrier: carrier.nullable(),
  created_at: z19.string(),
  updated_at: z19.string().nullable(),
  verification: challengeSchema.nullable(),
  carrier_statuses: z19.partialRecord(carrier, carrierStatusSchema),
  spam_state: z19.partialRecord(carrier, z19.boolean())
});
var toRecord3 = (item) => readEntity("MonitoredNumber", numberSchema, item);
async function claimPhone(orgId, e164, numberId) {
  return insertItem("SpamPhoneGuard", { ...guardKey(orgId, e164), organization_id: orgId, number_id: numberId });
}
async function releasePhone(orgId, e164, numberId) {
  await conditionalWrite(
    () => db().send(
      new DeleteCommand5({ TableName: tableName(), Key: guardKey(orgId, e164), ConditionExpression: "number_id = :id", ExpressionAttributeValues: { ":id": numberId } })
    )
  );
}
async function reserveSlot(orgId, limit) {
  return updateItem({
    Key: counterKey(orgId),
    UpdateExpression: `ADD #count :one SET ${COUNT_STAMP.set}`,
    ...limit === null ? {} : { ConditionExpression: "attribute_not_exists(#count) OR #count < :limit" },
    ExpressionAttributeNames: { "#count": "count", ...COUNT_STAMP.names },
    ExpressionAttributeValues: { ":one": 1, ...COUNT_STAMP.values, ...limit === null ? {} : { ":limit": limit } }
  });
}
async function releaseSlot(orgId) {
  await updateItem({
    Key: counterKey(orgId),
    UpdateExpression: "ADD #count :minus",
    ConditionExpression: "#count > :zero",
    ExpressionAttributeNames: { "#count": "count" },
    ExpressionAttributeValues: { ":minus": -1, ":zero": 0 }
  });
}
async function putNumber(record9) {
  await putItem("MonitoredNumber", { ...numberKey(record9.id), gsi1pk: orgIndexKey(record9.organization_id), gsi1sk: `${record9.created_at}#${record9.id}`, ...record9 }, IF_NEW);
}
async function getNumber(id) {
  const out = await db().send(new GetCommand10({ TableName: tableName(), Key: numberKey(id), ConsistentRead: true }));
  return toRecord3(out.Item);
}
async function listOrgNumbers(orgId, max) {
  const items = [];
  for await (const item of queryItems({ IndexName: "gsi1", KeyConditionExpression: "gsi1pk = :pk", ExpressionAttributeValues: { ":pk": orgIndexKey(orgId) } }, max)) {
    items.push(toRecord3(item));
  }
  return items;
}
async function* verifiedNumbers() {
  for await (const item of queryItems({ IndexName: "gsi2", KeyConditionExpression: "gsi2pk = :pk", ExpressionAttributeValues: { ":pk": VERIFIED_INDEX_PK } })) {
    yield toRecord3(item);
  }
}
async function replaceChallenge(id, expectedSalt, challenge, at) {
  return updateItem({
    Key: numberKey(id),
    UpdateExpression: "SET verification = :c, updated_at = :at",
    ConditionExpression: expectedSalt === null ? "attribute_exists(pk) AND verified = :false AND (attribute_not_exists(verification) OR verification = :null)" : "attribute_exists(pk) AND verified = :false AND verification.salt = :salt",
    ExpressionAttributeValues: { ":c": challenge, ":at": at, ":false": false, ...expectedSalt === null ? { ":null": null } : { ":salt": expectedSalt } }
  });
}
async function markChallengeUnsent(id, salt) {
  await updateItem({
    Key: numberKey(id),
    UpdateExpression: "SET verification.last_sent_at = :null",
    ConditionExpression: "verification.salt = :salt",
    ExpressionAttributeValues: { ":null": null, ":salt": salt }
  });
}
async function countAttempt(id, salt, maxAttempts) {
  return updateItem({
    Key: numberKey(id),
    UpdateExpression: "SET verification.attempts = verification.attempts + :one",
    ConditionExpression: "verified = :false AND verification.salt = :salt AND verification.attempts < :max",
    ExpressionAttributeValues: { ":one": 1, ":false": false, ":salt": salt, ":max": maxAttempts }
  });
}
async function markVerified(id, salt, at, createdAt, outbox = {}) {
  const extra = setClause(outbox);
  const item = await updateReturning({
    Key: numberKey(id),
    UpdateExpression: ["SET verified = :true, verified_at = :at, updated_at = :at, verification = :null, gsi2pk = :g2pk, gsi2sk = :g2sk", ...extra.sets].join(", "),
    ConditionExpression: "verified = :false AND verification.salt = :salt",
    ...extra.sets.length ? { ExpressionAttributeNames: extra.names } : {},
    ExpressionAttributeValues: { ":true": true, ":false": false, ":at": at, ":null": null, ":salt": salt, ":g2pk": VERIFIED_INDEX_PK, ":g2sk": `${createdAt}#${id}`, ...extra.values }
  });
  return item && toRecord3(item);
}
async function setCarrierStatus(id, status, at, extra = {}) {
  if (extra.spamFlag === true && extra.onSpamEdge) {
    const edge = await writeCarrierStatus(id, status, at, extra, extra.onSpamEdge);
    if (edge !== "not-an-edge") return edge;
  }
  const plain = await writeCarrierStatus(id, status, at, extra, null);
  return plain === "not-an-edge" ? null : plain;
}
async function writeCarrierStatus(id, status, at, extra, edgeOutbox) {
  const sets = ["carrier_statuses.#c = :status", "updated_at = :at"];
  const values = { ":status": status, ":at": at };
  if (extra.spamFlag !== void 0) {
    sets.push("spam_state.#c = :flag");
    values[":flag"] = extra.spamFlag;
  }
  if (extra.ownCarrier) {
    sets.push("carrier = :own");
    values[":own"] = extra.ownCarrier;
  }
  const names = { "#c": status.carrier };
  let condition = "attribute_exists(pk)";
  if (edgeOutbox) {
    const clause = setClause(edgeOutbox);
    sets.push(...clause.sets);
    Object.assign(names, clause.names);
    Object.assign(values, clause.values, { ":flagged": true });
    condition += " AND (attribute_not_exists(spam_state.#c) OR spam_state.#c <> :flagged)";
  }
  try {
    const out = await db().send(
      new UpdateCommand11({
        TableName: tableName(),
        Key: numberKey(id),
        UpdateExpression: `SET ${sets.join(", ")}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: "ALL_OLD"
      })
    );
    const old = toRecord3(out.Attributes);
    return { previousFlag: old?.spam_state?.[status.carrier] };
  } catch (error) {
    if (isConditionFailed(error)) return edgeOutbox ? "not-an-edge" : null;
    throw error;
  }
}
async function deleteNumberItem(id) {
  const out = await db().send(new DeleteCommand5({ TableName: tableName(), Key: numberKey(id), ReturnValues: "ALL_OLD" }));
  return toRecord3(out.Attributes);
}

// lambdas/spam/phone.ts
var SMS_CAPABLE_TYPES = /* @__PURE__ */ new Set(["MOBILE", "FIXED_LINE_OR_MOBILE", "VOIP", "PERSONAL_NUMBER"]);
var isSmsCapable = (type) => SMS_CAPABLE_TYPES.has(type);

// lambdas/spam/present.ts
var screenshotAvailable = (r, nowMs2) => Boolean(r.screenshot_key && r.captured_at && Date.parse(r.captured_at) > nowMs2 - HISTORY_WINDOW_MS);
function carrierStatusView(r, nowMs2) {
  return {
    carrier: r.carrier,
    status: r.status,
    spam_detected: r.spam_detected,
    spam_label: r.spam_label,
    test_run_id: r.test_run_id,
    captured_at: r.captured_at,
    screenshot_available: screenshotAvailable(r, nowMs2),
    same_carrier_warning: r.same_carrier_warning,
    simulated: r.simulated
  };
}
function monitoredNumberView(n, status, nowMs2) {
  const statuses = CARRIERS.flatMap((c) => n.carrier_statuses?.[c] ? [carrierStatusView(n.carrier_statuses[c], nowMs2)] : []);
  return {
    id: n.id,
    phone_number: n.phone_number,
    verified: n.verified,
    carrier: n.carrier,
    same_carrier_warning: statuses.some((s) => s.same_carrier_warning),
    status,
    created_at: n.created_at,
    updated_at: n.updated_at,
    carrier_statuses: statuses
  };
}
function historyItemView(r, nowMs2) {
  return {
    test_run_id: r.test_run_id,
    carrier: r.carrier,
    status: r.status,
    screenshot_available: screenshotAvailable(r, nowMs2),
    tested_at: r.tested_at,
    spam_detected: r.spam_detected,
    spam_label: r.spam_label,
    sip_response_code: r.sip_response_code,
    caller_id_verified: r.caller_id_verified,
    same_carrier_warning: r.same_carrier_warning,
    simulated: r.simulated
  };
}

// lambdas/spam/run-repository.ts
import { BatchWriteCommand } from "@aws-sdk/lib-dynamodb";
import * as z20 from "zod";
var runSchema = z20.looseObject({
  test_run_id: z20.string(),
  number_id: z20.string(),
  organization_id: z20.string(),
  carrier: carrierSchema,
  day: z20.string(),
  status: testStatusSchema,
  tested_at: z20.string(),
  ...verdictFields,
  captured_at: z20.string().nullable(),
  screenshot_key: z20.string().nullable(),
  screenshot_content_type: z20.string().nullable(),
  error: z20.string().nullable(),
  simulated: z20.boolean()
});
var runKey = (numberId, day, carrier2) => ({ pk: `SPAMNUM#${numberId}`, sk: `RUN#${day}#${carrier2}` });
async function putRun(run) {
  const testedMs = Date.parse(run.tested_at);
  await putItem("SpamTestRun", { ...runKey(run.number_id, run.day, run.carrier), ttl: Math.floor((testedMs + HISTORY_WINDOW_MS) / 1e3), ...run });
}
async function listRuns(numberId, nowMs2) {
  const since = nowMs2 - HISTORY_WINDOW_MS;
  const rows = [];
  for await (const item of queryItems({ KeyConditionExpression: "pk = :pk AND begins_with(sk, :run)", ExpressionAttributeValues: { ":pk": `SPAMNUM#${numberId}`, ":run": "RUN#" }, ScanIndexForward: false })) {
    const run = readExisting("SpamTestRun", runSchema, item);
    if (Date.parse(run.tested_at) >= since && Date.parse(run.tested_at) <= nowMs2) rows.push(run);
  }
  return rows.sort((a, b) => b.tested_at.localeCompare(a.tested_at) || a.carrier.localeCompare(b.carrier));
}
async function deleteRuns(numberId) {
  const keys2 = [];
  for await (const item of queryItems({ KeyConditionExpression: "pk = :pk AND begins_with(sk, :run)", ExpressionAttributeValues: { ":pk": `SPAMNUM#${numberId}`, ":run": "RUN#" }, ProjectionExpression: "pk, sk" })) {
    keys2.push({ pk: item.pk, sk: item.sk });
  }
  for (let i = 0; i < keys2.length; i += 25) {
    await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: keys2.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } })) } }));
  }
}
async function claimScheduledDay(day, at) {
  return insertItem("SpamScheduledRun", { pk: `SPAMRUN#${day}`, sk: "META", started_at: at, ttl: Math.floor(Date.parse(at) / 1e3) + 30 * 86400 });
}

// lambdas/spam/screenshots.ts
function bucket() {
  const name = config().SCREENSHOTS_BUCKET;
  if (!name) throw new Error("SCREENSHOTS_BUCKET is not set");
  return name;
}
var screenshotKey = (orgId, numberId, day, carrier2, contentType) => `spam/${orgId}/${numberId}/${day}/${carrier2.replace(/[^a-z0-9-]/g, "")}.${contentType === "image/png" ? "png" : "jpg"}`;
var putScreenshot = (key4, bytes, contentType) => putObject(bucket(), key4, bytes, contentType);
var getScreenshot = (key4) => getObject(bucket(), key4);

// lambdas/spam/verification-code.ts
import { createHmac as createHmac3, randomBytes as randomBytes6, randomInt, timingSafeEqual as timingSafeEqual2 } from "node:crypto";
var CODE_TTL_MS = 10 * 60 * 1e3;
var MAX_ATTEMPTS4 = 5;
var RESEND_COOLDOWN_MS = 30 * 1e3;
var MAX_SENDS_PER_DAY = 10;
var DAY_MS = 24 * 60 * 60 * 1e3;
var generateCode = () => String(randomInt(0, 1e6)).padStart(6, "0");
var hashCode = (salt, code) => createHmac3("sha256", salt).update(code).digest("hex");
function newChallenge(code, method, nowMs2, previous) {
  const salt = randomBytes6(16).toString("hex");
  return {
    method,
    salt,
    code_hash: hashCode(salt, code),
    expires_at: nowMs2 + CODE_TTL_MS,
    attempts: 0,
    last_sent_at: nowMs2,
    sends: [...(previous?.sends ?? []).filter((t) => t > nowMs2 - DAY_MS), nowMs2]
  };
}
function guessAllowed(challenge, nowMs2) {
  if (!challenge) return "missing";
  if (challenge.attempts >= MAX_ATTEMPTS4) return "exhausted";
  if (nowMs2 >= challenge.expires_at) return "expired";
  return null;
}
function codeMatches(challenge, code) {
  if (!/^\d{6}$/.test(code)) return false;
  const expected = Buffer.from(challenge.code_hash, "hex");
  const actual = Buffer.from(hashCode(challenge.salt, code), "hex");
  return expected.length === actual.length && timingSafeEqual2(expected, actual);
}
function resendThrottle(challenge, nowMs2) {
  if (!challenge) return null;
  const recent = challenge.sends.filter((t) => t > nowMs2 - DAY_MS);
  if (recent.length >= MAX_SENDS_PER_DAY) return { limit: MAX_SENDS_PER_DAY, windowSeconds: DAY_MS / 1e3, waitMs: Math.min(...recent) + DAY_MS - nowMs2 };
  if (challenge.last_sent_at !== null && nowMs2 - challenge.last_sent_at < RESEND_COOLDOWN_MS) {
    return { limit: 1, windowSeconds: RESEND_COOLDOWN_MS / 1e3, waitMs: challenge.last_sent_at + RESEND_COOLDOWN_MS - nowMs2 };
  }
  return null;
}

// lambdas/spam/numbers.ts
function instructions(method, phone, id) {
  const how = method === "sms" ? `We sent a text message with a 6-digit code to ${phone}.` : `We are calling ${phone}; answer to hear a 6-digit code.`;
  return `${how} Submit it with POST /api/v1/spam/numbers/${id}/verify within ${CODE_TTL_MS / 6e4} minutes. Daily monitoring begins once the number is verified.`;
}
async function sendChallengeCode(ports2, n, code, method) {
  try {
    await ports2.telephony.sendCode({ numberId: n.id, to: n.phone_number, code, method });
    return null;
  } catch (error) {
    logger.warn("verification code not sent", { number_id: n.id, method, error });
    return "The verification code could not be sent; request a new one with verify/resend.";
  }
}
function parseOr4002(raw, method) {
  const parsed = normalizeUsCa(raw);
  if (!parsed) throw new InvalidInput("phone_number is not a valid US or Canadian phone number");
  const smsCapable = isSmsCapable(parsed.type);
  if (method === "sms" && !smsCapable) throw new InvalidInput(`sms verification is not available for this number (line type ${parsed.type}); use call`);
  return { ...parsed, smsCapable };
}
async function addNumber(ports2, org, input) {
  const method = input.verification_method;
  const phone = parseOr4002(input.phone_number, method);
  const id = newId();
  if (!await claimPhone(org.id, phone.e164, id)) throw new Conflict("This phone number is already monitored in your organization");
  const limit = effectiveLimit(org);
  if (!await reserveSlot(org.id, limit)) {
    await releasePhone(org.id, phone.e164, id);
    throw new Forbidden(`Spam monitoring number limit reached (${limit}); delete a number or purchase add-on numbers`);
  }
  const code = generateCode();
  const at = nowIso();
  const record9 = {
    id,
    organization_id: org.id,
    phone_number: phone.e164,
    region: phone.region,
    line_type: phone.type,
    sms_capable: phone.smsCapable,
    verified: false,
    verified_at: null,
    carrier: null,
    created_at: at,
    updated_at: at,
    verification: newChallenge(code, method, nowMs()),
    carrier_statuses: {},
    spam_state: {}
  };
  try {
    await putNumber(record9);
  } catch (error2) {
    await releaseSlot(org.id);
    await releasePhone(org.id, phone.e164, id);
    throw error2;
  }
  const error = await sendChallengeCode(ports2, record9, code, method);
  if (error) await markChallengeUnsent(id, record9.verification.salt);
  return {
    number: monitoredNumberView(record9, await numberStatus(org, id) ?? "active", nowMs()),
    verification: { required: true, sent: !error, method, instructions: instructions(method, record9.phone_number, id), error }
  };
}
async function ownNumber(orgId, id) {
  const n = await getNumber(id);
  if (!n || n.organization_id !== orgId) throw new NotFound("Monitored number not found");
  return n;
}
async function verifyNumber(ports2, org, id, code) {
  const n = await ownNumber(org.id, id);
  if (n.verified) throw new InvalidInput("This number is already verified");
  const refused = guessAllowed(n.verification, nowMs());
  if (refused === "missing") throw new InvalidInput("No verification code is pending; request one with verify/resend");
  if (refused === "exhausted") throw new InvalidInput("Too many wrong codes; request a new code with verify/resend");
  if (refused === "expired") throw new InvalidInput("The verification code has expired; request a new one with verify/resend");
  const challenge = n.verification;
  if (!await countAttempt(id, challenge.salt, MAX_ATTEMPTS4)) {
    const again = await ownNumber(org.id, id);
    if (again.verified) throw new InvalidInput("This number is already verified");
    throw new InvalidInput("Too many wrong codes; request a new code with verify/resend");
  }
  if (!codeMatches(challenge, code.trim())) {
    const left = MAX_ATTEMPTS4 - challenge.attempts - 1;
    throw new InvalidInput(left > 0 ? `Invalid verification code; ${left} attempt(s) left` : "Invalid verification code; request a new code with verify/resend");
  }
  const at = nowIso();
  const key4 = numberItemKey(id);
  const event = buildEvent({
    type: "number.verified",
    id: `evt_${sha256Hex(`number.verified:${id}:${at}`).slice(0, 32)}`,
    data: { number_id: id, phone_number: n.phone_number, carrier: n.carrier, status: await numberStatus(org, id) ?? "active", verified_at: at }
  });
  const verified = await markVerified(id, challenge.salt, at, n.created_at, outboxFields(key4, [{ organization_id: org.id, event }], at));
  if (!verified) throw new InvalidInput("This number is already verified");
  await flushOutbox(ports2, key4);
  return { success: true, verified: true, phone_number: n.phone_number, message: "Number verified; daily spam monitoring has begun." };
}
async function resendCode(ports2, org, id, method) {
  const n = await ownNumber(org.id, id);
  if (n.verified) throw new InvalidInput("This number is already verified");
  if (method === "sms" && !n.sms_capable) throw new InvalidInput(`sms verification is not available for this number (line type ${n.line_type}); use call`);
  const throttle = resendThrottle(n.verification, nowMs());
  if (throttle) throw resendThrottled(throttle);
  const code = generateCode();
  const challenge = newChallenge(code, method, nowMs(), n.verification);
  if (!await replaceChallenge(id, n.verification?.salt ?? null, challenge, nowIso())) {
    const again = await ownNumber(org.id, id);
    if (again.verified) throw new InvalidInput("This number is already verified");
    throw resendThrottled({ limit: 1, windowSeconds: RESEND_COOLDOWN_MS / 1e3, waitMs: RESEND_COOLDOWN_MS }, "Another code was requested at the same time");
  }
  const error = await sendChallengeCode(ports2, n, code, method);
  if (error) {
    await markChallengeUnsent(id, challenge.salt);
    throw new UpstreamFailed("The verification code could not be sent; try again shortly");
  }
  return { success: true, phone_number: n.phone_number, method, message: instructions(method, n.phone_number, id) };
}
function resendThrottled(throttle, reason) {
  const seconds = Math.max(1, Math.ceil(throttle.waitMs / 1e3));
  const why = reason ?? (throttle.limit === 1 ? "A code was sent recently" : `${throttle.limit} codes were sent in the last 24 hours`);
  return new RateLimited(`${why}; wait ${seconds} seconds before requesting another`, {
    retryAfterSeconds: seconds,
    limit: throttle.limit,
    remaining: 0,
    resetAt: Math.ceil((nowMs() + throttle.waitMs) / 1e3)
  });
}
async function numberStatus(org, id) {
  const limit = effectiveLimit(org);
  if (limit === null) return "active";
  const first = await listOrgNumbers(org.id, limit);
  return inLimitIds(first, limit).has(id) ? "active" : "paused";
}
async function listNumbers(org, limit, offset) {
  const all = await listOrgNumbers(org.id);
  const cap = effectiveLimit(org);
  const inLimit = inLimitIds(all, cap);
  const now2 = nowMs();
  return {
    numbers: all.slice(offset, offset + limit).map((n) => monitoredNumberView(n, inLimit.has(n.id) ? "active" : "paused", now2)),
    spam_monitoring_limit: cap,
    total: all.length
  };
}
async function getNumberView(org, id) {
  const n = await ownNumber(org.id, id);
  return monitoredNumberView(n, await numberStatus(org, id) ?? "active", nowMs());
}
async function history(org, id) {
  const n = await ownNumber(org.id, id);
  const now2 = nowMs();
  const results = (await listRuns(id, now2)).map((r) => historyItemView(r, now2));
  return { number_id: id, phone_number: n.phone_number, results, total: results.length };
}
async function screenshot(org, id, carrier2) {
  const n = await ownNumber(org.id, id);
  const now2 = nowMs();
  const candidates = Object.values(n.carrier_statuses ?? {}).filter((s) => (carrier2 ? s.carrier === carrier2 : true) && screenshotAvailable(s, now2)).sort((a, b) => b.captured_at.localeCompare(a.captured_at));
  const latest = candidates[0];
  const source = latest ?? (await listRuns(id, now2)).find((r) => (carrier2 ? r.carrier === carrier2 : true) && screenshotAvailable(r, now2));
  if (!source?.screenshot_key) throw new NotFound(carrier2 ? `No screenshot for ${carrier2} in the last 7 days` : "No screenshot in the last 7 days");
  const bytes = await getScreenshot(source.screenshot_key);
  if (!bytes) throw new NotFound("Screenshot no longer available");
  return { bytes, contentType: source.screenshot_content_type ?? "image/jpeg" };
}
async function deleteNumber(org, id) {
  const n = await ownNumber(org.id, id);
  const removed = await deleteNumberItem(id);
  if (!removed) throw new NotFound("Monitored number not found");
  await releasePhone(org.id, n.phone_number, id);
  await releaseSlot(org.id);
  await deleteRuns(id);
  return { success: true, number_id: id, phone_number: n.phone_number, message: "Monitoring stopped; the number and its history were removed." };
}

// lambdas/spam/carrier-test/index.ts
import { GetSecretValueCommand as GetSecretValueCommand3, SecretsManagerClient as SecretsManagerClient4 } from "@aws-sdk/client-secrets-manager";

// lambdas/spam/carrier-test/device-lab.ts
import * as z21 from "zod";
var TestCall = z21.object({
  id: z21.string().min(1).max(200),
  status: z21.enum(["queued", "dialing", "running", "completed", "failed"]),
  spam_detected: z21.boolean().nullish(),
  displayed_label: z21.string().max(200).nullish(),
  sip_response_code: z21.union([z21.string().max(10), z21.number().int()]).nullish(),
  caller_id_verified: z21.boolean().nullish(),
  originating_carrier: z21.string().nullish(),
  screenshot_available: z21.boolean().nullish(),
  captured_at: z21.string().nullish(),
  error: z21.string().max(1e3).nullish()
});
var MAX_SCREENSHOT_BYTES = 5 * 1024 * 1024;
var DeviceLabCarrierTests = class {
  constructor(options) {
    this.options = options;
    const url = new URL(options.baseUrl);
    if (url.protocol !== "https:" && url.hostname !== "127.0.0.1" && url.hostname !== "localhost") {
      throw new Error("DEVICE_LAB_URL must be https (plain http is allowed only on loopback)");
    }
    this.base = url.toString().replace(/\/+$/, "");
  }
  options;
  name = "device-lab";
  simulated = false;
  base;
  async runTest(request) {
    try {
      const created2 = await this.call("POST", "/v1/test-calls", { from: request.phoneNumber, carrier: request.carrier, reference: request.testRunId });
      let call = TestCall.parse(await created2.json());
      const maxPolls = this.options.maxPolls ?? 60;
      for (let poll = 0; call.status !== "completed" && call.status !== "failed"; poll++) {
        if (poll >= maxPolls) return failed(`device lab did not finish the test call after ${maxPolls} polls`, call);
        await sleep2(this.options.pollIntervalMs ?? 5e3);
        call = TestCall.parse(await (await this.call("GET", `/v1/test-calls/${encodeURIComponent(call.id)}`)).json());
      }
      if (call.status === "failed") return failed(call.error ?? "device lab reported the test call failed", call);
      const screenshot2 = call.screenshot_available === false ? null : await this.screenshot(call.id);
      const label = call.displayed_label ?? null;
      return {
        status: "completed",
        spam_detected: call.spam_detected ?? (label ? true : null),
        spam_label: label,
        sip_response_code: call.sip_response_code == null ? null : String(call.sip_response_code),
        caller_id_verified: call.caller_id_verified ?? null,
        originating_carrier: isCarrier(call.originating_carrier) ? call.originating_carrier : null,
        screenshot: screenshot2,
        captured_at: call.captured_at && !Number.isNaN(Date.parse(call.captured_at)) ? new Date(call.captured_at).toISOString() : nowIso(),
        error: null,
        simulated: false
      };
    } catch (error) {
      return failed(`device lab error: ${error.message}`.slice(0, 500), null);
    }
  }
  async screenshot(id) {
    const response = await this.call("GET", `/v1/test-calls/${encodeURIComponent(id)}/screenshot`, void 0, true);
    if (response.status === 404) return null;
    const contentType = (response.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (contentType !== "image/jpeg" && contentType !== "image/png") return null;
    const bytes = Buffer.from(await response.arrayBuffer());
    if (bytes.length === 0 || bytes.length > MAX_SCREENSHOT_BYTES) return null;
    return { bytes, contentType };
  }
  async call(method, path, body, allow404 = false) {
    const response = await (this.options.fetchFn ?? fetch)(`${this.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${await this.options.token()}`, ...body ? { "content-type": "application/json" } : {}, accept: "application/json" },
      body: body ? JSON.stringify(body) : void 0,
      redirect: "error",
      signal: AbortSignal.timeout(this.options.requestTimeoutMs ?? 1e4)
    });
    if (!response.ok && !(allow404 && response.status === 404)) {
      await response.body?.cancel();
      throw new Error(`${method} ${path} answered ${response.status}`);
    }
    return response;
  }
};
function failed(error, call) {
  return {
    status: "failed",
    spam_detected: null,
    spam_label: null,
    sip_response_code: call?.sip_response_code == null ? null : String(call.sip_response_code),
    caller_id_verified: null,
    originating_carrier: isCarrier(call?.originating_carrier) ? call.originating_carrier : null,
    screenshot: null,
    captured_at: null,
    error,
    simulated: false
  };
}
var sleep2 = (ms) => new Promise((resolve3) => setTimeout(resolve3, ms));

// lambdas/spam/carrier-test/simulator.ts
import { setTimeout as sleep3 } from "node:timers/promises";

// lambdas/spam/carrier-test/call-screen.ts
import { encode } from "jpeg-js";

// lambdas/spam/carrier-test/bitmap-font.ts
var GLYPH_WIDTH = 5;
var GLYPH_HEIGHT = 9;
var ADVANCE = GLYPH_WIDTH + 1;
var RAW = {
  " ": "",
  "0": ".###. #...# #..## #.#.# ##..# #...# .###.",
  "1": "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",
  "2": ".###. #...# ....# ...#. ..#.. .#... #####",
  "3": "##### ...#. ..#.. ...#. ....# #...# .###.",
  "4": "...#. ..##. .#.#. #..#. ##### ...#. ...#.",
  "5": "##### #.... ####. ....# ....# #...# .###.",
  "6": "..##. .#... #.... ####. #...# #...# .###.",
  "7": "##### ....# ...#. ..#.. .#... .#... .#...",
  "8": ".###. #...# #...# .###. #...# #...# .###.",
  "9": ".###. #...# #...# .#### ....# ...#. .##..",
  A: ".###. #...# #...# ##### #...# #...# #...#",
  B: "####. #...# #...# ####. #...# #...# ####.",
  C: ".###. #...# #.... #.... #.... #...# .###.",
  D: "####. #...# #...# #...# #...# #...# ####.",
  E: "##### #.... #.... ####. #.... #.... #####",
  F: "##### #.... #.... ####. #.... #.... #....",
  G: ".###. #...# #.... #.### #...# #...# .####",
  H: "#...# #...# #...# ##### #...# #...# #...#",
  I: ".###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",
  J: "..### ...#. ...#. ...#. ...#. #..#. .##..",
  K: "#...# #..#. #.#.. ##... #.#.. #..#. #...#",
  L: "#.... #.... #.... #.... #.... #.... #####",
  M: "#...# ##.## #.#.# #.#.# #...# #...# #...#",
  N: "#...# #...# ##..# #.#.# #..## #...# #...#",
  O: ".###. #...# #...# #...# #...# #...# .###.",
  P: "####. #...# #...# ####. #.... #.... #....",
  Q: ".###. #...# #...# #...# #.#.# #..#. .##.#",
  R: "####. #...# #...# ####. #.#.. #..#. #...#",
  S: ".#### #.... #.... .###. ....# ....# ####.",
  T: "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
  U: "#...# #...# #...# #...# #...# #...# .###.",
  V: "#...# #...# #...# #...# #...# .#.#. ..#..",
  W: "#...# #...# #...# #.#.# #.#.# #.#.# .#.#.",
  X: "#...# #...# .#.#. ..#.. .#.#. #...# #...#",
  Y: "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..",
  Z: "##### ....# ...#. ..#.. .#... #.... #####",
  a: "..... ..... .###. ....# .#### #...# .####",
  b: "#.... #.... #.##. ##..# #...# #...# ####.",
  c: "..... ..... .###. #.... #.... #...# .###.",
  d: "....# ....# .##.# #..## #...# #...# .####",
  e: "..... ..... .###. #...# ##### #.... .###.",
  f: "..##. .#..# .#... ###.. .#... .#... .#...",
  g: "..... ..... .#### #...# #...# #...# .#### ....# .###.",
  h: "#.... #.... #.##. ##..# #...# #...# #...#",
  i: "..#.. ..... .##.. ..#.. ..#.. ..#.. .###.",
  j: "...#. ..... ..##. ...#. ...#. ...#. ...#. #..#. .##..",
  k: "#.... #.... #..#. #.#.. ##... #.#.. #..#.",
  l: ".##.. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",
  m: "..... ..... ##.#. #.#.# #.#.# #.#.# #.#.#",
  n: "..... ..... #.##. ##..# #...# #...# #...#",
  o: "..... ..... .###. #...# #...# #...# .###.",
  p: "..... ..... ####. #...# #...# #...# ####. #.... #....",
  q: "..... ..... .#### #...# #...# #...# .#### ....# ....#",
  r: "..... ..... #.##. ##..# #.... #.... #....",
  s: "..... ..... .###. #.... .###. ....# ####.",
  t: ".#... .#... ###.. .#... .#... .#..# ..##.",
  u: "..... ..... #...# #...# #...# #..## .##.#",
  v: "..... ..... #...# #...# #...# .#.#. ..#..",
  w: "..... ..... #...# #...# #.#.# #.#.# .#.#.",
  x: "..... ..... #...# .#.#. ..#.. .#.#. #...#",
  y: "..... ..... #...# #...# #...# #...# .#### ....# .###.",
  z: "..... ..... ##### ...#. ..#.. .#... #####",
  "+": "..... ..#.. ..#.. ##### ..#.. ..#.. .....",
  "-": "..... ..... ..... ##### ..... ..... .....",
  "(": "...#. ..#.. .#... .#... .#... ..#.. ...#.",
  ")": ".#... ..#.. ...#. ...#. ...#. ..#.. .#...",
  ":": "..... .##.. .##.. ..... .##.. .##.. .....",
  ".": "..... ..... ..... ..... ..... .##.. .##..",
  ",": "..... ..... ..... ..... ..... .##.. .##.. ..#.. .#...",
  "&": ".##.. #..#. #.#.. .#... #.#.# #..#. .##.#",
  "/": "....# ....# ...#. ..#.. .#... #.... #....",
  "'": "..#.. ..#.. .#... ..... ..... ..... .....",
  "!": "..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#..",
  "?": ".###. #...# ....# ...#. ..#.. ..... ..#.."
};
var GLYPHS = new Map(
  Object.entries(RAW).map(([ch, rows]) => {
    const given = rows ? rows.split(" ") : [];
    return [ch, Array.from({ length: GLYPH_HEIGHT }, (_, r) => Array.from({ length: GLYPH_WIDTH }, (_2, c) => given[r]?.[c] === "#"))];
  })
);
var glyphOf = (ch) => GLYPHS.get(ch) ?? GLYPHS.get("?");

// lambdas/spam/carrier-test/call-screen.ts
var SCREEN_WIDTH = 360;
var SCREEN_HEIGHT = 640;
var BACKGROUND = [18, 22, 33];
var STATUS_BAR = [28, 33, 46];
var WHITE = [245, 245, 245];
var GREY = [165, 172, 186];
var AMBER = [240, 190, 70];
var BANNER = [196, 36, 36];
var DECLINE = [220, 53, 69];
var ACCEPT = [40, 167, 69];
var CARRIER_NAMES = { "at&t": "AT&T", "t-mobile": "T-Mobile", verizon: "Verizon" };
var BANNER_BOX = { x: 16, y: 100, width: SCREEN_WIDTH - 32, height: 60 };
var BUTTONS = [
  { cx: 96, label: "Decline", color: DECLINE },
  { cx: 264, label: "Accept", color: ACCEPT }
];
var BUTTON_Y = 520;
var BUTTON_RADIUS = 34;
function displayNumber(e164) {
  const nanp = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return nanp ? `+1 (${nanp[1]}) ${nanp[2]}-${nanp[3]}` : e164;
}
var textWidth = (text, scale) => (text.length * ADVANCE - 1) * scale;
var centered = (text, scale) => Math.round((SCREEN_WIDTH - textWidth(text, scale)) / 2);
function callScreenTexts(input) {
  const at = new Date(input.capturedAt);
  if (Number.isNaN(at.getTime())) throw new Error(`capturedAt is not a date: ${input.capturedAt}`);
  const iso = at.toISOString();
  const time = iso.slice(11, 16);
  const carrier2 = CARRIER_NAMES[input.carrier];
  const number16 = displayNumber(input.phoneNumber);
  const texts = [
    { text: carrier2, x: 16, y: 14, scale: 2, color: WHITE, background: STATUS_BAR },
    { text: time, x: SCREEN_WIDTH - 16 - textWidth(time, 2), y: 14, scale: 2, color: WHITE, background: STATUS_BAR },
    { text: "SIMULATED TEST CALL", x: centered("SIMULATED TEST CALL", 2), y: 58, scale: 2, color: AMBER, background: BACKGROUND }
  ];
  if (input.label) {
    const fits = Math.floor((BANNER_BOX.width - 12) / (ADVANCE * 3));
    const label = input.label.length > fits ? `${input.label.slice(0, fits - 1)}.` : input.label;
    texts.push({ text: label, x: centered(label, 3), y: BANNER_BOX.y + Math.round((BANNER_BOX.height - 7 * 3) / 2), scale: 3, color: WHITE, background: BANNER });
  }
  texts.push(
    { text: number16, x: centered(number16, 3), y: 200, scale: 3, color: WHITE, background: BACKGROUND },
    { text: "Incoming call", x: centered("Incoming call", 2), y: 250, scale: 2, color: GREY, background: BACKGROUND },
    ...BUTTONS.map((b) => ({ text: b.label, x: Math.round(b.cx - textWidth(b.label, 2) / 2), y: BUTTON_Y + BUTTON_RADIUS + 14, scale: 2, color: GREY, background: BACKGROUND })),
    { text: `${iso.slice(0, 10)} ${time} UTC`, x: centered(`${iso.slice(0, 10)} ${time} UTC`, 2), y: 606, scale: 2, color: GREY, background: BACKGROUND }
  );
  return texts;
}
var Raster = class {
  constructor(width, height, fill) {
    this.width = width;
    this.height = height;
    this.data = Buffer.alloc(width * height * 4, 255);
    this.rect(0, 0, width, height, fill);
  }
  width;
  height;
  data;
  pixel(x, y, [r, g, b]) {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = (y * this.width + x) * 4;
    this.data[i] = r;
    this.data[i + 1] = g;
    this.data[i + 2] = b;
  }
  rect(x, y, w, h, color) {
    for (let yy = y; yy < y + h; yy++) for (let xx = x; xx < x + w; xx++) this.pixel(xx, yy, color);
  }
  circle(cx, cy, r, color) {
    for (let yy = cy - r; yy <= cy + r; yy++) for (let xx = cx - r; xx <= cx + r; xx++) if ((xx - cx) ** 2 + (yy - cy) ** 2 <= r * r) this.pixel(xx, yy, color);
  }
  text({ text, x, y, scale, color }) {
    [...text].forEach((ch, i) => {
      const glyph = glyphOf(ch);
      for (let row = 0; row < GLYPH_HEIGHT; row++)
        for (let col = 0; col < GLYPH_WIDTH; col++) if (glyph[row][col]) this.rect(x + (i * ADVANCE + col) * scale, y + row * scale, scale, scale, color);
    });
  }
};
function renderCallScreen(input) {
  const texts = callScreenTexts(input);
  const raster = new Raster(SCREEN_WIDTH, SCREEN_HEIGHT, BACKGROUND);
  raster.rect(0, 0, SCREEN_WIDTH, 44, STATUS_BAR);
  if (input.label) raster.rect(BANNER_BOX.x, BANNER_BOX.y, BANNER_BOX.width, BANNER_BOX.height, BANNER);
  for (const b of BUTTONS) raster.circle(b.cx, BUTTON_Y, BUTTON_RADIUS, b.color);
  raster.rect(BUTTONS[1].cx - 14, BUTTON_Y - 4, 28, 8, WHITE);
  for (let i = 0; i < 28; i++) raster.rect(BUTTONS[0].cx - 14 + i, BUTTON_Y - 4 + Math.round((i - 14) / 4), 1, 8, WHITE);
  for (const t of texts) raster.text(t);
  const caption = `SIMULATED incoming call from ${input.phoneNumber} on ${input.carrier} at ${input.capturedAt}: ${input.label ?? "no label"}`;
  return encode({ data: raster.data, width: SCREEN_WIDTH, height: SCREEN_HEIGHT, comments: [caption] }, 90).data;
}

// lambdas/spam/carrier-test/simulator.ts
var SIMULATED_LABELS = {
  "at&t": "Suspected Spam",
  "t-mobile": "Scam Likely",
  verizon: "Potential Spam"
};
function simulatedVerdict(phoneNumber, carrier2, day) {
  const suffix = phoneNumber.slice(-4);
  if (suffix === "0666") return "flagged";
  if (suffix === "0667") return carrier2 === "verizon" ? "flagged" : "clean";
  if (suffix === "0668") return epochDay(day) % 2 === 0 ? "flagged" : "clean";
  if (suffix === "0669" && carrier2 === "t-mobile") return "failed";
  return "clean";
}
function simulatedOwnCarrier(phoneNumber) {
  const last = Number(phoneNumber.slice(-1));
  return last === 9 || Number.isNaN(last) ? null : CARRIERS[last % 3];
}
var epochDay = (day) => Math.floor(Date.parse(`${day}T00:00:00Z`) / 864e5);
var SimulatedCarrierTests = class {
  /** `delayMs`: how long each test takes, so runs can be exercised at a real lab's call latency. */
  constructor(delayMs = 0) {
    this.delayMs = delayMs;
  }
  delayMs;
  name = "simulator";
  simulated = true;
  async runTest(request) {
    if (this.delayMs > 0) await sleep3(this.delayMs);
    const verdict = simulatedVerdict(request.phoneNumber, request.carrier, request.day);
    const originating = simulatedOwnCarrier(request.phoneNumber);
    if (verdict === "failed") {
      return {
        status: "failed",
        spam_detected: null,
        spam_label: null,
        sip_response_code: "480",
        caller_id_verified: null,
        originating_carrier: originating,
        screenshot: null,
        captured_at: null,
        error: "simulated: handset temporarily unavailable",
        simulated: true
      };
    }
    const flagged = verdict === "flagged";
    const label = flagged ? SIMULATED_LABELS[request.carrier] : null;
    const capturedAt = nowIso();
    return {
      status: "completed",
      spam_detected: flagged,
      spam_label: label,
      sip_response_code: "200",
      caller_id_verified: !flagged,
      originating_carrier: originating,
      screenshot: { bytes: renderCallScreen({ carrier: request.carrier, phoneNumber: request.phoneNumber, capturedAt, label }), contentType: "image/jpeg" },
      captured_at: capturedAt,
      error: null,
      simulated: true
    };
  }
};

// lambdas/spam/carrier-test/index.ts
function configuredCarrierTests(config2) {
  if (config2.CARRIER_TEST_PROVIDER === "simulator") return new SimulatedCarrierTests(config2.SIMULATOR_CARRIER_TEST_DELAY_MS);
  return new DeviceLabCarrierTests({
    baseUrl: config2.DEVICE_LAB_URL,
    token: deviceLabToken(config2),
    pollIntervalMs: config2.DEVICE_LAB_POLL_INTERVAL_MS,
    maxPolls: config2.DEVICE_LAB_MAX_POLLS
  });
}
function deviceLabToken(config2) {
  let token = null;
  return () => {
    const direct = config2.DEVICE_LAB_TOKEN;
    if (direct) return Promise.resolve(direct);
    const arn = config2.DEVICE_LAB_TOKEN_SECRET_ARN;
    if (!arn) return Promise.reject(new Error("neither DEVICE_LAB_TOKEN nor DEVICE_LAB_TOKEN_SECRET_ARN is set"));
    token ??= new SecretsManagerClient4({}).send(new GetSecretValueCommand3({ SecretId: arn })).then((out) => {
      if (!out.SecretString) throw new Error("device lab token secret is empty");
      return out.SecretString;
    }).catch((error) => {
      token = null;
      throw error;
    });
    return token;
  };
}

// lambdas/spam/telephony/aws-sms-voice.ts
import { PinpointSMSVoiceV2Client, SendTextMessageCommand, SendVoiceMessageCommand } from "@aws-sdk/client-pinpoint-sms-voice-v2";

// lambdas/spam/telephony/port.ts
var TelephonyError = class extends Error {
  name = "TelephonyError";
};
var messageText = (code) => `Your phone validation service verification code is ${code}. It expires in 10 minutes.`;
function voiceSsml(code) {
  const digits = code.split("").join(" ");
  const say = `<say-as interpret-as="digits">${digits}</say-as>`;
  return `<speak>Your verification code is ${say}. Again, your code is ${say}.</speak>`;
}

// lambdas/spam/telephony/aws-sms-voice.ts
var AwsSmsVoiceTelephony = class {
  constructor(originationIdentity, client6 = new PinpointSMSVoiceV2Client({}), configurationSetName) {
    this.originationIdentity = originationIdentity;
    this.client = client6;
    this.configurationSetName = configurationSetName;
    if (!originationIdentity) throw new Error("SMS_VOICE_ORIGINATION_IDENTITY is not set");
  }
  originationIdentity;
  client;
  configurationSetName;
  name = "aws-sms-voice";
  async sendCode(input) {
    const common3 = {
      DestinationPhoneNumber: input.to,
      OriginationIdentity: this.originationIdentity,
      ConfigurationSetName: this.configurationSetName,
      // The code is useless after 10 minutes; do not let the provider deliver it later than that.
      TimeToLive: 600,
      Context: { number_id: input.numberId }
    };
    try {
      const out = input.method === "sms" ? await this.client.send(new SendTextMessageCommand({ ...common3, MessageBody: messageText(input.code), MessageType: "TRANSACTIONAL" })) : await this.client.send(new SendVoiceMessageCommand({ ...common3, MessageBody: voiceSsml(input.code), MessageBodyTextType: "SSML", VoiceId: "JOANNA" }));
      if (!out.MessageId) throw new TelephonyError("the messaging service returned no message id");
      return { messageId: out.MessageId };
    } catch (error) {
      if (error instanceof TelephonyError) throw error;
      throw new TelephonyError(`${error.name}: ${error.message}`);
    }
  }
};

// lambdas/spam/telephony/simulator.ts
import { PutCommand as PutCommand3, QueryCommand as QueryCommand6 } from "@aws-sdk/lib-dynamodb";
var SIMULATED_UNDELIVERABLE_SUFFIX = "0502";
var outboxPk = (to) => `SIMOUTBOX#${to}`;
var SimulatedTelephony = class {
  name = "simulator";
  async sendCode(input) {
    if (input.to.endsWith(SIMULATED_UNDELIVERABLE_SUFFIX)) throw new TelephonyError("simulated delivery failure (number ends in 0502)");
    const message = { id: newId(), to: input.to, number_id: input.numberId, method: input.method, code: input.code, sent_at: nowIso() };
    await db().send(
      new PutCommand3({
        TableName: tableName(),
        Item: { pk: outboxPk(input.to), sk: `${message.sent_at}#${message.id}`, ...stamp("SimulatedMessage"), ttl: nowUnix() + 86400, ...message }
      })
    );
    return { messageId: message.id };
  }
};

// lambdas/spam/telephony/index.ts
function configuredTelephony(config2) {
  const provider = config2.TELEPHONY_PROVIDER ?? (config2.DEPLOYMENT === "aws" ? "aws" : "simulator");
  if (provider === "aws") return new AwsSmsVoiceTelephony(config2.SMS_VOICE_ORIGINATION_IDENTITY, void 0, config2.SMS_VOICE_CONFIGURATION_SET);
  return new SimulatedTelephony();
}

// lambdas/composition/aws-spam.ts
var spam = null;
function awsSpamPorts() {
  if (!spam) {
    let telephony = null;
    let carrierTests = null;
    spam = {
      ...awsDeliveryPorts(),
      get telephony() {
        return telephony ??= configuredTelephony(config());
      },
      get carrierTests() {
        return carrierTests ??= configuredCarrierTests(config());
      }
    };
  }
  return spam;
}
function awsPorts() {
  const spamPorts = awsSpamPorts();
  return {
    ...awsUploadPorts(),
    ...awsSealPorts(),
    ...awsOpenPorts(),
    get telephony() {
      return spamPorts.telephony;
    },
    get carrierTests() {
      return spamPorts.carrierTests;
    }
  };
}

// lambdas/spam/handler.ts
var spamApi = (ports2) => apiHandler([
  operation(spamRoutes.add, async (ctx) => created(await addNumber(ports2, ctx.principal.organization, ctx.body))),
  operation(spamRoutes.verify, async (ctx) => ok(await verifyNumber(ports2, ctx.principal.organization, ctx.params.number_id, ctx.body.code))),
  operation(spamRoutes.resend, async (ctx) => ok(await resendCode(ports2, ctx.principal.organization, ctx.params.number_id, ctx.body.method))),
  operation(spamRoutes.list, async (ctx) => ok(await listNumbers(ctx.principal.organization, ctx.query.limit, ctx.query.offset))),
  operation(spamRoutes.get, async (ctx) => ok(await getNumberView(ctx.principal.organization, ctx.params.number_id))),
  operation(spamRoutes.history, async (ctx) => ok(await history(ctx.principal.organization, ctx.params.number_id))),
  operation(spamRoutes.screenshot, async (ctx) => {
    const image = await screenshot(ctx.principal.organization, ctx.params.number_id, ctx.query.carrier);
    return { status: 200, contentType: image.contentType, bytes: image.bytes, headers: { "cache-control": "private, max-age=300" } };
  }),
  operation(spamRoutes.delete, async (ctx) => ok(await deleteNumber(ctx.principal.organization, ctx.params.number_id)))
]);
var handler4 = spamApi(awsSpamPorts());

// lambdas/contacts/batch-counter.ts
import { UpdateCommand as UpdateCommand12 } from "@aws-sdk/lib-dynamodb";
var BATCH_STAMP = stampUpdate("ContactBatch");
var counterKey2 = (orgId) => ({ pk: `ORG#${orgId}`, sk: "CONTACTBATCH#max" });
async function nextBatchPosition(orgId) {
  const out = await db().send(
    new UpdateCommand12({
      TableName: tableName(),
      Key: counterKey2(orgId),
      UpdateExpression: `SET batch_id = if_not_exists(batch_id, :fresh), ${BATCH_STAMP.set} ADD position_count :one`,
      ExpressionAttributeNames: BATCH_STAMP.names,
      ExpressionAttributeValues: { ":fresh": newId(), ":one": 1, ...BATCH_STAMP.values },
      ReturnValues: "ALL_NEW"
    })
  );
  return { batchId: String(out.Attributes.batch_id), position: Number(out.Attributes.position_count) };
}
async function closeBatch(orgId) {
  await db().send(
    new UpdateCommand12({
      TableName: tableName(),
      Key: counterKey2(orgId),
      UpdateExpression: `SET batch_id = :fresh, position_count = :zero, ${BATCH_STAMP.set}`,
      ExpressionAttributeNames: BATCH_STAMP.names,
      ExpressionAttributeValues: { ":fresh": newId(), ":zero": 0, ...BATCH_STAMP.values }
    })
  );
}

// lambdas/contacts/idempotency-repository.ts
import { DeleteCommand as DeleteCommand6, GetCommand as GetCommand11 } from "@aws-sdk/lib-dynamodb";
import * as z22 from "zod";
var claimSchema = z22.looseObject({ contact_id: z22.string(), fingerprint: z22.string(), created_at: z22.string() });
var claimKey = (orgId, apiKeyId, idempotencyKey) => ({
  pk: `IDEMP#${orgId}#${apiKeyId}#${sha256Hex(idempotencyKey)}`,
  sk: "META"
});
async function claimIdempotencyKey(orgId, apiKeyId, idempotencyKey, claim) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const result = await claimOnce(orgId, apiKeyId, idempotencyKey, claim);
    if (result.claimed || result.existing) return result;
  }
  return { claimed: false, existing: null };
}
async function claimOnce(orgId, apiKeyId, idempotencyKey, claim) {
  try {
    await putItem("IdempotencyKey", { ...claimKey(orgId, apiKeyId, idempotencyKey), ...claim }, IF_NEW);
    return { claimed: true };
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
  const out = await db().send(new GetCommand11({ TableName: tableName(), Key: claimKey(orgId, apiKeyId, idempotencyKey), ConsistentRead: true }));
  return { claimed: false, existing: readEntity("IdempotencyKey", claimSchema, out.Item) };
}
async function releaseIdempotencyKey(orgId, apiKeyId, idempotencyKey) {
  await db().send(new DeleteCommand6({ TableName: tableName(), Key: claimKey(orgId, apiKeyId, idempotencyKey) }));
}

// lambdas/contacts/create-contact.ts
var IN_FLIGHT_MS = 3e4;
var CREATING_BOUND_MS = 5 * 6e4;
async function createContact(ports2, principal, input) {
  const normalized = normalizeUsCa(input.phone);
  if (!normalized) throw new InvalidInput(`phone '${input.phone}' is not a valid US or Canadian phone number`);
  const tier = parseValidationTier(input.validation_tier);
  if (!tier) throw new InvalidInput(`validation_tier must be one of: standard, max (got '${input.validation_tier}')`);
  const properties = input.properties ?? {};
  if (Buffer.byteLength(JSON.stringify(properties)) > MAX_PROPERTIES_BYTES) throw new InvalidInput(`properties must be at most ${MAX_PROPERTIES_BYTES} bytes of JSON`);
  if (input.callback_secret && !input.callback_url) throw new InvalidInput("callback_secret was given without callback_url");
  if (input.callback_url) {
    if (!input.callback_secret) throw new InvalidInput("callback_secret is required with callback_url: callbacks are always signed");
    await assertSafeUrl(ports2.net, input.callback_url);
  }
  let id = newId();
  if (input.idempotency_key !== void 0) {
    const fingerprint = sha256Hex(
      JSON.stringify([normalized.e164, tier, properties, input.callback_url ?? null, input.callback_secret ? sha256Hex(input.callback_secret) : null])
    );
    const claim = await claimIdempotencyKey(principal.organizationId, principal.apiKeyId, input.idempotency_key, { contact_id: id, fingerprint, created_at: nowIso() });
    if (!claim.claimed) {
      if (!claim.existing) throw new Conflict("A request with this idempotency_key is still being processed; retry in a few seconds");
      if (claim.existing.fingerprint !== fingerprint) {
        throw new Conflict("idempotency_key was already used with a different request; use a new key for a different contact");
      }
      const existing = await getContact(claim.existing.contact_id);
      if (existing && existing.status !== "creating") return { contact: existing, replayed: true };
      if (nowMs() - Date.parse(claim.existing.created_at) < IN_FLIGHT_MS) {
        throw new Conflict("A request with this idempotency_key is still being processed; retry in a few seconds");
      }
      id = claim.existing.contact_id;
    }
  }
  const callback = input.callback_url && input.callback_secret ? { url: input.callback_url, secret: await ports2.sealer.seal(input.callback_secret, callbackSecretContext(principal.organizationId, input.callback_url)) } : null;
  try {
    return { contact: await chargeAndQueue(principal, id, normalized.e164, tier, properties, callback), replayed: false };
  } catch (error) {
    if (error instanceof InsufficientCreditsError) {
      await deleteCreatingContact(id);
      if (input.idempotency_key !== void 0) await releaseIdempotencyKey(principal.organizationId, principal.apiKeyId, input.idempotency_key);
      throw new InsufficientCredits(`Insufficient credits: this contact needs ${error.required} credits and the balance is ${error.available}`);
    }
    throw error;
  }
}
async function chargeAndQueue(principal, id, phone, tier, properties, callback) {
  const at = nowIso();
  const draft = {
    id,
    organization_id: principal.organizationId,
    api_key_id: principal.apiKeyId,
    phone,
    properties,
    status: "creating",
    validation_tier: tier,
    credits_charged: 0,
    batch_position: null,
    answer_intent: null,
    identity: null,
    error_message: null,
    callback_url: callback?.url ?? null,
    callback_secret: callback?.secret ?? null,
    pool_upload_id: null,
    created_at: at,
    updated_at: at
  };
  const inserted = await insertContact(draft, new Date(Date.parse(at) + CREATING_BOUND_MS).toISOString());
  if (!inserted) {
    const existing = await getContact(id);
    if (!existing) throw new Error(`contact ${id} vanished during creation`);
    if (existing.status !== "creating") return existing;
    Object.assign(draft, { created_at: existing.created_at, batch_position: existing.batch_position });
  }
  const changeId = `contact:${id}`;
  await debit(principal.organizationId, changeId, tier === "max" ? 2 : 1, { reason: `contact (${tier})`, resourceId: id, neverCharged: inserted });
  crashPoint("contact.after-debit");
  let position = null;
  if (tier === "max") {
    position = draft.batch_position ?? await setBatchPosition(id, (await nextBatchPosition(principal.organizationId)).position);
    if (tierCost("max", position) === 1) {
      await refund(principal.organizationId, `${changeId}:batch-discount`, changeId, { reason: "max batch: even position costs 1", resourceId: id, amount: 1 });
    }
  }
  const fields = { credits_charged: tierCost(tier, position), batch_position: position, ...queueIndexKeys(draft) };
  const queued = await transitionContact(draft, ["creating"], "queued", fields, nowIso());
  crashPoint("contact.after-queued");
  const contact = queued ?? await getContact(id);
  if (!contact) throw new Error(`contact ${id} vanished during creation`);
  return contact;
}
async function recoverCreatingContacts(createdBeforeIso) {
  let resumed = 0;
  let removed = 0;
  for (const contact of await claimStaleCreating(nowMs(), CREATING_BOUND_MS, createdBeforeIso)) {
    const charged = await chargeOf(contact.organization_id, `contact:${contact.id}`);
    if (charged) {
      const principal = { organizationId: contact.organization_id, apiKeyId: contact.api_key_id };
      const callback = contact.callback_url && contact.callback_secret ? { url: contact.callback_url, secret: contact.callback_secret } : null;
      await chargeAndQueue(principal, contact.id, contact.phone, contact.validation_tier, contact.properties, callback);
      resumed++;
    } else {
      await deleteCreatingContact(contact.id);
      removed++;
    }
  }
  return { resumed, removed };
}

// lambdas/contacts/handler.ts
var versions = [
  { routes: contactsV1Routes, view: toV1 },
  { routes: contactsV2Routes, view: toV2 }
];
var contactsApi = (ports2) => apiHandler(
  versions.flatMap(({ routes: routes2, view }) => [
    operation(routes2.create, async (ctx) => {
      const { contact, replayed } = await createContact(ports2, ctx.principal, ctx.body);
      const headers2 = replayed ? { "Idempotent-Replayed": "true" } : {};
      return { status: 201, body: view(contact), headers: headers2 };
    }),
    operation(routes2.list, async (ctx) => {
      const page2 = await listContacts(ctx.principal.organizationId, ctx.query);
      return ok({ data: page2.data.map((c) => view(c)), next_cursor: page2.nextCursor });
    }),
    operation(routes2.get, async (ctx) => {
      const contact = await getContact(ctx.params.contact_id);
      if (!contact || contact.organization_id !== ctx.principal.organizationId || contact.status === "creating") throw new NotFound("Contact not found");
      return ok(view(contact));
    })
  ])
);
var handler5 = contactsApi({ ...awsNetPorts(), ...awsSealPorts() });

// lambdas/uploads/download-signer.ts
import { GetSecretValueCommand as GetSecretValueCommand4, SecretsManagerClient as SecretsManagerClient5 } from "@aws-sdk/client-secrets-manager";
import { getSignedUrl as cloudFrontSignedUrl } from "@aws-sdk/cloudfront-signer";

// lambdas/uploads/content-disposition.ts
var MAX_FILENAME_BYTES = 255;
var FALLBACK_NAME = "download.csv";
var UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\p{Cs}/gu;
function downloadFilename(name) {
  const cleaned = name.replace(UNSAFE, "").replace(/[/\\]/g, "_").trim();
  return fitBytes(cleaned || FALLBACK_NAME, MAX_FILENAME_BYTES);
}
function attachmentDisposition(name) {
  const filename = downloadFilename(name);
  const fallback2 = asciiFallback(filename);
  const header = `attachment; filename="${fallback2}"`;
  return fallback2 === filename ? header : `${header}; filename*=UTF-8''${encodeExtValue(filename)}`;
}
function asciiFallback(name) {
  return name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^\x20-\x7e]|["\\%]/g, "_");
}
function encodeExtValue(name) {
  return encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
var TAIL_CHARS = 24;
function fitBytes(name, max) {
  if (Buffer.byteLength(name) <= max) return name;
  const chars = Array.from(name);
  const tail = chars.slice(-TAIL_CHARS).join("");
  let head = "";
  let bytes = Buffer.byteLength(tail) + Buffer.byteLength("\u2026");
  for (const ch of chars.slice(0, -TAIL_CHARS)) {
    bytes += Buffer.byteLength(ch);
    if (bytes > max) break;
    head += ch;
  }
  return head + "\u2026" + tail;
}

// lambdas/uploads/download-signer.ts
var privateKey = null;
async function signingKey2() {
  if (privateKey) return privateKey;
  const direct = config().DOWNLOADS_SIGNING_PRIVATE_KEY;
  if (direct) return privateKey = direct;
  const arn = config().DOWNLOADS_SIGNING_KEY_SECRET_ARN;
  if (!arn) throw new Error("DOWNLOADS_CLOUDFRONT_DOMAIN is set but neither DOWNLOADS_SIGNING_KEY_SECRET_ARN nor DOWNLOADS_SIGNING_PRIVATE_KEY is");
  const out = await new SecretsManagerClient5({}).send(new GetSecretValueCommand4({ SecretId: arn }));
  if (!out.SecretString?.includes("PRIVATE KEY")) throw new Error(`secret ${arn} does not hold a PEM private key yet: put the CloudFront key pair's private key in it`);
  return privateKey = out.SecretString;
}
async function signedDownloadUrl(key4, seconds, filename) {
  const disposition = filename === void 0 ? void 0 : attachmentDisposition(filename);
  const domain = config().DOWNLOADS_CLOUDFRONT_DOMAIN;
  if (!domain) return presignGet(filesBucket(), key4, seconds, disposition);
  const keyPairId = config().DOWNLOADS_CLOUDFRONT_KEY_ID;
  if (!keyPairId) throw new Error("DOWNLOADS_CLOUDFRONT_DOMAIN is set but DOWNLOADS_CLOUDFRONT_KEY_ID is not");
  const query = disposition ? `?response-content-disposition=${encodeURIComponent(disposition)}` : "";
  return cloudFrontSignedUrl({
    url: `https://${domain}/${key4.split("/").map(encodeURIComponent).join("/")}${query}`,
    keyPairId,
    privateKey: await signingKey2(),
    dateLessThan: new Date((nowUnix() + seconds) * 1e3).toISOString()
  });
}

// lambdas/uploads/byte-offsets.ts
import { isAscii } from "node:buffer";
function byteSpans(bytes, skip, layout) {
  const n = rowCount(layout);
  const start = new Int32Array(n);
  const end = new Int32Array(n);
  if (isAscii(bytes.subarray(skip))) {
    for (let i = 0; i < n; i++) {
      start[i] = layout.start[i] + skip;
      end[i] = layout.end[i] + skip;
    }
    return { header: [layout.header.start + skip, layout.header.end + skip], start, end };
  }
  let unit = 0;
  let byte = skip;
  const toByte = (offset) => {
    while (unit < offset) {
      const b = bytes[byte];
      if (b < 128) byte += 1;
      else if (b < 224) byte += 2;
      else if (b < 240) byte += 3;
      else {
        byte += 4;
        unit++;
      }
      unit++;
    }
    return byte;
  };
  const header = [toByte(layout.header.start), toByte(layout.header.end)];
  for (let i = 0; i < n; i++) {
    start[i] = toByte(layout.start[i]);
    end[i] = toByte(layout.end[i]);
  }
  return { header, start, end };
}

// lambdas/uploads/byte-sink.ts
var ByteSink = class {
  buf;
  len = 0;
  constructor(capacity) {
    this.buf = Buffer.allocUnsafe(Math.max(64, capacity));
  }
  reserve(n) {
    if (this.len + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.len + n, this.buf.length * 2));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }
  write(text) {
    this.reserve(text.length * 3);
    this.len += this.buf.write(text, this.len, "utf8");
  }
  copy(source, start, end) {
    this.reserve(end - start);
    this.len += source.copy(this.buf, this.len, start, end);
  }
  /** Starts again at the beginning, keeping the memory (the next file of the same upload is about as large). */
  reset() {
    this.len = 0;
    return this;
  }
  /** The bytes written (a view: no copy; valid until the next write after reset). */
  bytes() {
    return this.buf.subarray(0, this.len);
  }
};

// lambdas/uploads/processed-file.ts
function writeProcessedBytes(original, skip, layout, phoneColumns, identity, results, options = {}, sink) {
  const { bom, header } = layout;
  const n = rowCount(layout);
  const spans = byteSpans(original, skip, layout);
  const single = phoneColumns.length === 1;
  const withIdentity = identity && (!single || options.includeIdentity === true);
  const added = single ? ["Service_Status", ...withIdentity ? ["Service_Identity"] : []] : phoneColumns.flatMap((c) => [`${c}_Service_Status`, ...identity ? [`${c}_Service_Answer_Intent`, `${c}_Service_Identity`] : []]);
  let order = rowIndexes(n);
  if (options.statuses) {
    const wanted = options.statuses;
    const kept = [];
    for (let i = 0; i < n; i++) {
      const r = results.at(i);
      if (r.cells.some((c) => c && wanted.has(c.status)) || wanted.has("Unknown") && r.best === "Unknown") kept.push(i);
    }
    order = kept;
  }
  if (options.sort === "best_status") {
    const ranked = [...order];
    const rank = new Float64Array(n);
    for (const i of ranked) rank[i] = rankOf(results.at(i).best, identity);
    ranked.sort((a, b) => rank[a] - rank[b] || a - b);
    order = ranked;
  }
  const width = header.width;
  const neutralize = options.neutralizeFormulas === true;
  const out = sink?.reset() ?? new ByteSink(original.length + n * 24);
  const eol = header.eol || "\n";
  if (bom) out.write("\uFEFF");
  const line2 = (recordIndex, cells) => {
    const record9 = recordIndex < 0 ? header : spanAt(layout, recordIndex);
    if (neutralize && record9.formulaFields) out.write(record9.formulaFields.map(safeCsvCell).join(","));
    else if (recordIndex < 0) out.copy(original, spans.header[0], spans.header[1]);
    else out.copy(original, spans.start[recordIndex], spans.end[recordIndex]);
    out.write(",".repeat(Math.max(0, width - record9.width)) + "," + cells.map(safeCsvCell).join(","));
  };
  line2(-1, added);
  for (const i of order) {
    const r = results.at(i);
    const cells = single ? [r.cells[0]?.status ?? r.best, ...withIdentity ? [r.cells[0]?.identity ?? r.bestIdentity ?? "Unknown"] : []] : r.cells.flatMap((c) => c ? [c.status, ...identity ? [c.answerIntent, c.identity ?? ""] : []] : ["", ...identity ? ["", ""] : []]);
    out.write(eol);
    line2(i, cells);
  }
  const lastEol = n ? spanAt(layout, n - 1).eol : header.eol;
  if (lastEol) out.write(eol);
  return out.bytes();
}
function* rowIndexes(n) {
  for (let i = 0; i < n; i++) yield i;
}

// lambdas/uploads/layout-source.ts
async function loadStoredLayout(upload) {
  const stored = await getObject(filesBucket(), keys.layout(upload));
  if (stored) return readLayout(stored);
  const work = await getObject(filesBucket(), keys.work(upload));
  return work ? readWorkLayout(work) : null;
}
async function loadLayout(upload, original) {
  const skip = hasUtf8Bom(original) ? 3 : 0;
  const stored = await loadStoredLayout(upload);
  if (stored) return { layout: stored, skip };
  const layout = layoutOf(readCsv(original));
  layout.bom ||= skip > 0;
  return { layout: storedLayoutOf(layout), skip };
}

// lambdas/uploads/downloads.ts
var LINK_SECONDS = 3600;
var REACHABLE = {
  answer_intent: ["Likely Answer", "Likely Call Screening"],
  identity: ["1 - Likely Right-Party Answer", "2 - Likely Answer", "3 - Likely Right-Party Call Screening", "4 - Likely Call Screening"]
};
async function link(key4, filename) {
  const expires = nowUnix() + LINK_SECONDS;
  return { url: await signedDownloadUrl(key4, LINK_SECONDS, filename), expires_at: expires };
}
async function originalLink(upload) {
  return link(keys.original(upload), upload.original_filename);
}
function parseStatuses(raw, identity) {
  if (raw === void 0) return void 0;
  const vocabulary = vocabularyFor(identity);
  const values = raw.split(",").map((s) => s.trim()).filter(Boolean);
  if (values.length === 0) throw new InvalidInput(`statuses is empty; valid values: ${vocabulary.join(", ")}`);
  const unknown7 = values.filter((v) => !vocabulary.includes(v));
  if (unknown7.length) throw new InvalidInput(`Unrecognized status ${unknown7.map((u) => `'${u}'`).join(", ")}; valid values for this upload: ${vocabulary.join(", ")}`);
  return new Set(values);
}
async function processedLink(upload, query) {
  requireCompleted(upload);
  const base3 = upload.original_filename.replace(/\.csv$/i, "");
  const options = {
    statuses: parseStatuses(query.statuses, upload.identity_enabled),
    includeIdentity: query.include_identity === "true",
    sort: query.sort === "best_status" ? "best_status" : void 0,
    neutralizeFormulas: query.neutralize_formulas === "true"
  };
  const plain = !options.statuses && !options.includeIdentity && !options.sort && !options.neutralizeFormulas;
  const key4 = plain ? keys.processed(upload) : await sliceKey(upload, options);
  await recordExport(upload.id, nowIso());
  return link(key4, `${base3}_processed.csv`);
}
async function processedFilteredLink(upload) {
  requireCompleted(upload);
  const key4 = await filteredSliceKey(upload);
  await recordExport(upload.id, nowIso());
  return link(key4, `${upload.original_filename.replace(/\.csv$/i, "")}_processed_filtered.csv`);
}
var filteredOptions = (upload) => ({ statuses: new Set(upload.identity_enabled ? REACHABLE.identity : REACHABLE.answer_intent) });
var filteredSliceKey = (upload) => sliceKey(upload, filteredOptions(upload));
var commonSlices = (upload) => [filteredOptions(upload), { sort: "best_status" }];
var sliceName = (options) => sha256Hex(JSON.stringify({ s: options.statuses ? [...options.statuses].sort() : null, i: options.includeIdentity ?? false, o: options.sort ?? null, ...options.neutralizeFormulas ? { f: true } : {} })).slice(0, 24);
async function writeCommonSlices(upload, original, skip, layout, results, sink) {
  const bucket2 = filesBucket();
  for (const options of commonSlices(upload)) {
    await putObject(bucket2, keys.slice(upload, sliceName(options)), writeProcessedBytes(original, skip, layout, upload.phone_columns, upload.identity_enabled, results, options, sink), "text/csv");
  }
}
async function sliceKey(upload, options) {
  const key4 = keys.slice(upload, sliceName(options));
  const bucket2 = filesBucket();
  if (await objectExists(bucket2, key4)) return key4;
  const [original, stored] = await Promise.all([getObject(bucket2, keys.original(upload)), getObject(bucket2, keys.results(upload))]);
  if (!original || !stored) throw new Error(`upload ${upload.id}: processed data missing`);
  const { layout, skip } = await loadLayout(upload, original);
  await putObject(bucket2, key4, writeProcessedBytes(original, skip, layout, upload.phone_columns, upload.identity_enabled, parseResults(stored), options), "text/csv");
  return key4;
}
function requireCompleted(upload) {
  if (upload.status !== "completed" || !upload.processed_available) {
    throw new Conflict(`The processed file is not available yet: the upload is ${upload.status === "charging" ? "ready_for_processing" : upload.status}`);
  }
}

// lambdas/uploads/staging.ts
import { createPresignedPost } from "@aws-sdk/s3-presigned-post";
import { DeleteCommand as DeleteCommand7, GetCommand as GetCommand12 } from "@aws-sdk/lib-dynamodb";
var STAGING_SECONDS = 3600;
var stagedKey = (orgId, id, format = "csv") => `staging/${orgId}/${id}.${format}`;
async function stageUpload(orgId, format = "csv") {
  const id = newId();
  const post2 = await createPresignedPost(linkSigner(), {
    Bucket: filesBucket(),
    Key: stagedKey(orgId, id, format),
    Conditions: [["content-length-range", 1, MAX_CSV_BYTES]],
    Expires: STAGING_SECONDS
  });
  return { staged_upload_id: id, format, url: post2.url, fields: post2.fields, expires_at: nowUnix() + STAGING_SECONDS, max_bytes: MAX_CSV_BYTES };
}
async function readStagedJson(orgId, id) {
  return getObject(filesBucket(), stagedKey(orgId, id, "json"));
}
async function readStaged(orgId, id) {
  const bytes = await getObject(filesBucket(), stagedKey(orgId, id));
  if (!bytes) throw new InvalidInput(`No staged file for staged_upload_id ${id}: POST the file to the staging URL first (links expire after an hour)`);
  return bytes;
}
var CLAIM_TTL_SECONDS = 30 * 86400;
var claimKey2 = (orgId, id) => ({ pk: `STAGED#${orgId}#${id}`, sk: "CLAIM" });
async function createFromStagedOnce(orgId, stagedId, create) {
  const uploadId = newId();
  const key4 = claimKey2(orgId, stagedId);
  const claimed = await insertItem("StagedUploadClaim", { ...key4, organization_id: orgId, upload_id: uploadId, claimed_at: nowIso(), ttl: nowUnix() + CLAIM_TTL_SECONDS });
  if (!claimed) {
    const existing = await db().send(new GetCommand12({ TableName: tableName(), Key: key4, ConsistentRead: true }));
    const by = existing.Item?.upload_id ? ` by upload ${String(existing.Item.upload_id)}` : "";
    throw new Conflict(
      `staged_upload_id ${stagedId} was already used${by}; a staged file makes one upload. To upload it again, POST /api/v1/uploads/staging for a new staged_upload_id and send the file there`
    );
  }
  try {
    return await create(uploadId);
  } catch (error) {
    if (isRefusal(error)) await releaseClaim(key4, uploadId);
    throw error;
  }
}
async function releaseClaim(key4, uploadId) {
  await conditionalWrite(
    () => db().send(
      new DeleteCommand7({
        TableName: tableName(),
        Key: key4,
        ConditionExpression: "upload_id = :mine",
        ExpressionAttributeValues: { ":mine": uploadId }
      })
    )
  );
}

// lambdas/uploads/handler.ts
async function ownUpload(orgId, id) {
  const upload = await getUpload(id);
  if (!upload || upload.organization_id !== orgId || upload.status === "charging") throw new NotFound("Upload not found");
  return upload;
}
var uploadsApi = (ports2) => apiHandler([
  operation(uploadsRoutes.create, async (ctx) => {
    const type = mediaType(ctx.headers["content-type"]);
    let request;
    if (type === "multipart/form-data") {
      request = await parseMultipartUpload(ctx.rawBody, ctx.headers["content-type"]);
    } else if (type === "application/json") {
      const body = parseJsonBody(ctx.route, ctx);
      const stagedJson = body.staged_upload_id ? await readStagedJson(ctx.principal.organizationId, body.staged_upload_id) : null;
      request = stagedJson ? parseStagedJsonUpload(body, stagedJson) : parseJsonUpload(body);
      if (request.stagedUploadId && !stagedJson) request.csv = await readStaged(ctx.principal.organizationId, request.stagedUploadId);
    } else {
      throw new UnsupportedContentType(`Unsupported Content-Type '${type || "none"}'; send multipart/form-data (CSV file) or application/json`);
    }
    const input = {
      csv: request.csv,
      filename: request.filename ?? (request.stagedUploadId ? "staged_upload.csv" : synthesizedFilename()),
      mapping: request.mapping,
      tier: request.tier,
      skipMobileLookup: request.skipMobileLookup,
      source: "api"
    };
    const upload = request.stagedUploadId ? await createFromStagedOnce(ctx.principal.organizationId, request.stagedUploadId, (uploadId) => createUpload(ports2, ctx.principal, input, uploadId)) : await createUpload(ports2, ctx.principal, input);
    return ok(toPublicUpload(upload));
  }),
  operation(uploadsRoutes.stage, async (ctx) => ok(await stageUpload(ctx.principal.organizationId, ctx.query?.format ?? "csv"))),
  operation(uploadsRoutes.list, async (ctx) => {
    const page2 = await listUploads(ctx.principal.organizationId, ctx.query.limit, ctx.query.cursor);
    return ok({ data: page2.data.map(toPublicUpload), next_cursor: page2.nextCursor });
  }),
  operation(uploadsRoutes.get, async (ctx) => ok(toPublicUpload(await ownUpload(ctx.principal.organizationId, ctx.params.id)))),
  operation(uploadsRoutes.remove, async () => {
    throw new Removed("Deleting uploads was removed on 2026-08-10; uploads cannot be deleted or cancelled");
  }),
  operation(uploadsRoutes.downloadOriginal, async (ctx) => ok(await originalLink(await ownUpload(ctx.principal.organizationId, ctx.params.id)))),
  operation(uploadsRoutes.downloadProcessed, async (ctx) => ok(await processedLink(await ownUpload(ctx.principal.organizationId, ctx.params.id), ctx.query ?? {}))),
  operation(uploadsRoutes.downloadProcessedFiltered, async (ctx) => ok(await processedFilteredLink(await ownUpload(ctx.principal.organizationId, ctx.params.id))))
]);
var handler6 = uploadsApi(awsWorkflowPorts());

// local/functions.ts
function apiFunctions(ports2) {
  return {
    platform: handler,
    credits: handler2,
    uploads: uploadsApi(ports2),
    contacts: contactsApi(ports2),
    webhooks: webhooksApi(ports2),
    spam: spamApi(ports2)
  };
}

// lambdas/credits/billing-period-job.ts
async function runBillingPeriodJob() {
  let checked = 0;
  let replenished = 0;
  for await (const orgId of balanceOrganizations()) {
    checked++;
    try {
      if (await replenishIfDue(orgId)) replenished++;
    } catch (error) {
      logger.error("billing period replenish failed", { organization_id: orgId, error });
    }
  }
  logger.info("billing period job", { checked, replenished });
  return { checked, replenished };
}

// lambdas/platform/lease.ts
import { DeleteCommand as DeleteCommand8, PutCommand as PutCommand4 } from "@aws-sdk/lib-dynamodb";
var leaseKey = (name) => ({ pk: `LEASE#${name}`, sk: "META" });
async function withLease(name, ttlMs, work) {
  const holder = newId();
  const now2 = nowMs();
  const taken = await conditionalWrite(
    () => db().send(
      new PutCommand4({
        TableName: tableName(),
        Item: { ...leaseKey(name), ...stamp("Lease"), holder, taken_at: now2, expires_at: now2 + ttlMs, ttl: Math.ceil((now2 + ttlMs) / 1e3) + 86400 },
        ConditionExpression: "attribute_not_exists(pk) OR expires_at < :now",
        ExpressionAttributeValues: { ":now": now2 }
      })
    )
  );
  if (!taken) return { skipped: true };
  try {
    return { skipped: false, result: await work() };
  } finally {
    await conditionalWrite(
      () => db().send(new DeleteCommand8({ TableName: tableName(), Key: leaseKey(name), ConditionExpression: "holder = :me", ExpressionAttributeValues: { ":me": holder } }))
    );
  }
}
async function releaseLeasesTakenBefore(names, beforeMs) {
  let released = 0;
  for (const name of names) {
    const done = await conditionalWrite(
      () => db().send(
        new DeleteCommand8({
          TableName: tableName(),
          Key: leaseKey(name),
          ConditionExpression: "attribute_exists(pk) AND (attribute_not_exists(taken_at) OR taken_at < :before)",
          ExpressionAttributeValues: { ":before": beforeMs }
        })
      )
    );
    if (done) released++;
  }
  return released;
}

// lambdas/contacts/pool-job.ts
async function runContactPool(ports2) {
  const run = await withLease(POOL_LEASE, POOL_LEASE_MS, () => poolOnce(ports2));
  if (run.skipped) {
    logger.info("contact pool run skipped: another run holds the lease");
    return { pooled: 0, uploads: [], discarded: 0, resumed: 0 };
  }
  return run.result;
}
var POOL_LEASE = "contact-pool";
var POOL_LEASE_MS = 6 * 6e4;
async function poolOnce(ports2) {
  const summary = { pooled: 0, uploads: [], discarded: 0, resumed: 0 };
  const entries2 = await readQueue(config().CONTACT_POOL_BATCH_PER_SHARD);
  const queued = /* @__PURE__ */ new Map();
  const interrupted = /* @__PURE__ */ new Map();
  for (const entry of entries2) {
    const contact = await getContact(entry.contact_id);
    if (!contact || ["completed", "failed", "discarded"].includes(contact.status)) {
      await dequeue(entry);
    } else if (contact.status === "queued") {
      push(queued, contact.organization_id, { contact, entry });
    } else if (contact.status === "processing" && contact.pool_upload_id) {
      push(interrupted, contact.pool_upload_id, { contact, entry });
    }
  }
  for (const [uploadId, members] of interrupted) {
    await startPool(ports2, uploadId, members);
    summary.resumed += members.length;
  }
  for (const [orgId, members] of queued) {
    const org = await getOrganization(orgId);
    const stale = members.filter((m) => !org || nowMs() - Date.parse(m.contact.created_at) > config().CONTACT_MAX_QUEUE_AGE_MS);
    for (const { contact, entry } of stale) {
      const reason = org ? "Not processed within the maximum queue time; refunded" : "Organization no longer exists; refunded";
      if (await discardContact(ports2, contact, reason)) summary.discarded++;
      await dequeue(entry);
    }
    const live = members.filter((m) => !stale.includes(m));
    if (live.some((m) => m.contact.validation_tier === "max")) await closeBatch(orgId);
    const groups = /* @__PURE__ */ new Map();
    for (const member of live) {
      const key4 = `${member.contact.validation_tier}:${nameFromProperties(member.contact.properties) ? "identity" : "plain"}`;
      push(groups, key4, member);
    }
    for (const group of groups.values()) {
      const uploadId = newId();
      const moved = [];
      for (const member of group) {
        const processing = await transitionContact(member.contact, ["queued"], "processing", { pool_upload_id: uploadId }, new Date(nowMs()).toISOString());
        if (processing) moved.push({ contact: processing, entry: member.entry });
      }
      if (moved.length === 0) continue;
      await startPool(ports2, uploadId, moved);
      summary.pooled += moved.length;
      summary.uploads.push(uploadId);
    }
  }
  if (summary.pooled || summary.discarded || summary.resumed) logger.info("contact pool run", { ...summary });
  return summary;
}
async function startPool(ports2, uploadId, members) {
  const first = members[0].contact;
  await createPoolUpload(ports2, {
    organizationId: first.organization_id,
    uploadId,
    tier: first.validation_tier,
    skipMobileLookup: false,
    rows: members.map(({ contact }) => {
      const name = nameFromProperties(contact.properties);
      return { contact_id: contact.id, phone: contact.phone, full_name: name?.full, first_name: name?.first, last_name: name?.last };
    })
  });
  for (const { entry } of members) await dequeue(entry);
}
function push(map, key4, value) {
  const list = map.get(key4);
  if (list) list.push(value);
  else map.set(key4, [value]);
}

// lambdas/uploads/pipeline/announce.ts
var eventId = (upload, what) => `evt_${sha256Hex(`${upload.id}:${what}`).slice(0, 32)}`;
function uploadData(upload) {
  return {
    id: upload.id,
    source: upload.source,
    status: upload.status,
    original_filename: upload.original_filename,
    valid_row_count: upload.valid_row_count,
    valid_number_count: upload.valid_number_count,
    invalid_row_count: upload.invalid_row_count,
    organization_id: upload.organization_id,
    created_at: upload.created_at
  };
}
async function completedEntries(upload) {
  if (upload.source === "api_pool") return [];
  const base3 = upload.original_filename.replace(/\.csv$/i, "");
  const processed = await signedDownloadUrl(keys.processed(upload), LINK_SECONDS, `${base3}_processed.csv`);
  const processedFiltered = await signedDownloadUrl(await filteredSliceKey(upload), LINK_SECONDS, `${base3}_processed_filtered.csv`);
  const event = buildEvent({
    type: "upload.completed",
    id: eventId(upload, "completed"),
    data: { upload: { ...uploadData(upload), downloads: { processed, processed_filtered: processedFiltered } } }
  });
  return [{ organization_id: upload.organization_id, event }];
}
function failedEntries(upload) {
  if (upload.source === "api_pool") return [];
  const event = buildEvent({
    type: "upload.failed",
    id: eventId(upload, "failed"),
    data: { upload: { ...uploadData(upload), downloads: null }, error_message: upload.error_message }
  });
  return [{ organization_id: upload.organization_id, event }];
}

// lambdas/uploads/pipeline/cell-items.ts
var BLANK = -1;
var INVALID3 = -2;
function* numberItems(rows, columns, identity) {
  const { numbers, names } = rows;
  const cells = new Int32Array(numbers.length);
  const byNumber = /* @__PURE__ */ new Map();
  const byKey = /* @__PURE__ */ new Map();
  const named = [];
  const itemRow = [];
  for (let i = 0; i < numbers.length; i++) {
    const n = numbers[i];
    if (n === "" || n === void 0) {
      cells[i] = BLANK;
      continue;
    }
    if (n === null) {
      cells[i] = INVALID3;
      continue;
    }
    const row = Math.floor(i / columns);
    const name = identity ? names?.[row] || void 0 : void 0;
    let item = byNumber.get(n);
    if (item !== void 0 && identity && !sameName(names?.[itemRow[item]] || void 0, name)) item = byKey.get(classifyKey(n, name, identity));
    if (item === void 0) {
      item = named.length;
      if (!byNumber.has(n)) byNumber.set(n, item);
      else byKey.set(classifyKey(n, name, identity), item);
      named.push(name ? 1 : 0);
      itemRow.push(row);
      yield name ? { key: classifyKey(n, name, identity), e164: n, name } : { key: classifyKey(n, name, identity), e164: n };
    }
    cells[i] = item;
  }
  return { columns, cells, named: Uint8Array.from(named) };
}
var sameName = (a, b) => a === b || a !== void 0 && b !== void 0 && a.full === b.full && a.first === b.first && a.last === b.last && Object.keys(a).length === Object.keys(b).length;
function cellItemsOf(rows, columns, identity) {
  const items = numberItems(rows, columns, identity);
  for (; ; ) {
    const next = items.next();
    if (next.done) return next.value;
  }
}
function serializeCellItems(index) {
  const head = Buffer.alloc(12);
  head.writeUInt32LE(index.columns, 0);
  head.writeUInt32LE(index.cells.length, 4);
  head.writeUInt32LE(index.named.length, 8);
  return Buffer.concat([head, Buffer.from(index.cells.buffer, index.cells.byteOffset, index.cells.byteLength), Buffer.from(index.named)]);
}
function parseCellItems(bytes) {
  const columns = bytes.readUInt32LE(0);
  const cellCount = bytes.readUInt32LE(4);
  const items = bytes.readUInt32LE(8);
  const cells = new Int32Array(cellCount);
  Buffer.from(cells.buffer).set(bytes.subarray(12, 12 + cellCount * 4));
  const named = new Uint8Array(items);
  named.set(bytes.subarray(12 + cellCount * 4, 12 + cellCount * 4 + items));
  return { columns, cells, named };
}

// lambdas/uploads/pipeline/prepare.ts
var processingBoundMs = () => config().UPLOAD_PROCESSING_BOUND_MS;
async function loadUploadWork(upload) {
  const bucket2 = filesBucket();
  const [stored, storedLayout] = await Promise.all([getObject(bucket2, keys.work(upload)), loadStoredLayout(upload)]);
  if (stored && storedLayout) return parseWork(stored, storedLayout, upload.phone_columns.length);
  const bytes = await getObject(bucket2, keys.original(upload));
  if (!bytes) throw new Error(`upload ${upload.id}: original missing`);
  const parsed = readCsv(bytes);
  const [header, ...rows] = parsed.records;
  const mapping = { phoneColumns: upload.phone_columns, fullNameColumn: upload.name_columns?.full, firstNameColumn: upload.name_columns?.first, lastNameColumn: upload.name_columns?.last };
  const layout = layoutOf(parsed);
  layout.bom ||= hasUtf8Bom(bytes);
  return { rows: planUpload(header.fields, rows.map((r) => r.fields), mapping, { minimum: 0 }).rows, layout, firstCells: rows.map((r) => r.fields[0] ?? "") };
}
async function loadRows(upload) {
  const stored = await getObject(filesBucket(), keys.work(upload));
  if (stored) return readWorkRows(stored);
  return storedRowsOf((await loadUploadWork(upload)).rows, upload.phone_columns.length);
}
async function loadCellItems(upload) {
  const stored = await getObject(filesBucket(), keys.cellItems(upload));
  if (stored) return parseCellItems(stored);
  return cellItemsOf(await loadRows(upload), upload.phone_columns.length, upload.identity_enabled);
}
async function prepare(input) {
  const upload = await getUpload(input.upload_id);
  if (!upload) throw new Error(`upload ${input.upload_id} not found`);
  if (upload.status === "ready_for_processing") {
    const at = nowIso();
    await transitionUpload(upload.id, ["ready_for_processing"], "processing", {}, at, new Date(Date.parse(at) + processingBoundMs()).toISOString());
  } else if (upload.status !== "processing") {
    throw new Error(`upload ${upload.id} is ${upload.status}; nothing to process`);
  }
  crashPoint("pipeline.after-start");
  const bucket2 = filesBucket();
  const chunkSize = config().UPLOAD_CHUNK_SIZE;
  const chunks = [];
  const items = numberItems(await loadRows(upload), upload.phone_columns.length, upload.identity_enabled);
  let chunk = [];
  for (; ; ) {
    const next = items.next();
    if (!next.done) chunk.push(next.value);
    if (chunk.length === chunkSize || next.done && chunk.length) {
      chunks.push(chunks.length);
      await putObject(bucket2, keys.chunk(upload, chunks.length - 1), JSON.stringify(chunk), "application/json");
      chunk = [];
    }
    if (next.done) {
      await putObject(bucket2, keys.cellItems(upload), serializeCellItems(next.value), "application/octet-stream");
      return { chunks };
    }
  }
}

// lambdas/uploads/pipeline/finalize.ts
async function finalize(ports2, input) {
  const current3 = await getUpload(input.upload_id);
  if (!current3) throw new Error(`upload ${input.upload_id} not found`);
  const bucket2 = filesBucket();
  let upload = current3;
  if (current3.status === "completed") {
    await flushOutbox(ports2, uploadItemKey(current3.id));
  } else if (current3.status === "processing" || current3.status === "ready_for_processing") {
    const index = await loadCellItems(current3);
    const { answers, simulated, lookupFailures } = await loadAnswers(current3, input.chunks ?? [], index.named.length);
    failIfTooManyLookupsFailed(current3.id, lookupFailures, index.named.length);
    const table2 = joinResults(index, answers, current3.identity_enabled);
    const results = table2;
    await putObject(bucket2, keys.results(current3), serializeResults(table2), "application/json");
    const original = await getObject(bucket2, keys.original(current3));
    if (!original) throw new Error(`upload ${current3.id}: original missing`);
    const { layout, skip } = await loadLayout(current3, original);
    const sink = new ByteSink(original.length + table2.length * 24);
    await putObject(bucket2, keys.processed(current3), writeProcessedBytes(original, skip, layout, current3.phone_columns, current3.identity_enabled, results, {}, sink), "text/csv");
    await writeCommonSlices(current3, original, skip, layout, results, sink);
    crashPoint("pipeline.before-complete");
    const at = nowIso();
    const fields = { result_summary: summarize(results, current3.identity_enabled, simulated), processed_available: true };
    const key4 = uploadItemKey(current3.id);
    const entries2 = await completedEntries({ ...current3, ...fields, status: "completed", updated_at: at });
    const staleAt = current3.source === "api_pool" ? new Date(Date.parse(at) + SETTLE_BOUND_MS).toISOString() : null;
    const done = await transitionUpload(current3.id, ["processing", "ready_for_processing"], "completed", { ...fields, ...outboxFields(key4, entries2, at) }, at, staleAt);
    if (!done) return { status: (await getUpload(current3.id))?.status ?? "unknown" };
    upload = done;
    crashPoint("pipeline.after-complete");
    if (entries2.length) await flushOutbox(ports2, key4);
  } else {
    return { status: current3.status };
  }
  return { status: upload.status };
}
function failIfTooManyLookupsFailed(uploadId, failures, total) {
  if (!failures.length) return;
  const reasons = [...new Set(failures.map((f2) => f2.lookupError))].slice(0, 5);
  logger.warn("provider lookups failed; those numbers are Unknown", { upload_id: uploadId, failed: failures.length, total, reasons });
  if (failures.length / Math.max(1, total) > config().PROVIDER_FAILURE_MAX_SHARE) {
    const error = new Error(`${failures.length} of ${total} provider lookups failed (${reasons.join("; ")})`);
    error.name = "ProviderFailureShareExceeded";
    throw error;
  }
}
var SETTLE_BOUND_MS = 5 * 6e4;
async function loadAnswers(upload, chunks, items) {
  const lookupFailures = [];
  const codes = new Uint8Array(items);
  const table2 = [];
  const byKey = /* @__PURE__ */ new Map();
  let simulated = false;
  let item = 0;
  for (const n of chunks) {
    const bytes = await getObject(filesBucket(), keys.chunkResult(upload, n));
    if (!bytes) throw new Error(`upload ${upload.id}: answers of chunk ${n} missing`);
    for (const a of JSON.parse(bytes.toString("utf8"))) {
      const k = `${a.answerIntent}|${a.identity ?? ""}`;
      let code = byKey.get(k);
      if (code === void 0) {
        table2.push({ answerIntent: a.answerIntent, identity: a.identity });
        code = table2.length;
        byKey.set(k, code);
      }
      if (item >= items) throw new Error(`upload ${upload.id}: the chunks hold more answers than the upload has items`);
      codes[item++] = code;
      simulated ||= a.simulated;
      if (a.lookupError) lookupFailures.push(a);
    }
  }
  if (chunks.length && item !== items) throw new Error(`upload ${upload.id}: the chunks hold ${item} answers for ${items} items`);
  return { answers: { codes, table: table2 }, simulated, lookupFailures };
}
function joinResults(index, answers, identity) {
  const results = new ResultTable(index.columns, identity, new Uint8Array(index.cells.length));
  for (let i = 0; i < index.cells.length; i++) {
    const item = index.cells[i];
    if (item < 0) {
      results.cells[i] = results.codeOf(cellResult(item === INVALID3 ? null : "", false, void 0, identity));
      continue;
    }
    const code = answers.codes[item];
    results.cells[i] = results.codeOf(cellResult("+", index.named[item] === 1, code ? answers.table[code - 1] : void 0, identity));
  }
  return results;
}

// lambdas/uploads/pipeline/fail.ts
async function fail(ports2, input) {
  logger.error("upload processing failed", { upload_id: input.upload_id, error: input.error?.Error, cause: input.error?.Cause });
  const upload = await getUpload(input.upload_id);
  if (!upload) throw new Error(`upload ${input.upload_id} not found`);
  return { status: (await failUpload(ports2, upload, `Processing failed (${input.error?.Error ?? "unknown error"})`)).status };
}
async function failUpload(ports2, upload, cause) {
  if (upload.status === "ready_for_processing" || upload.status === "processing") {
    const at = nowIso();
    const message = `${cause}; the credits were refunded. Upload the file again, or contact support with upload id ${upload.id}.`;
    const fields = { error_message: upload.error_message ?? message, credits_refunded: upload.credits_charged ?? 0 };
    const key4 = uploadItemKey(upload.id);
    const entries2 = failedEntries({ ...upload, ...fields, status: "failed", updated_at: at });
    const failed2 = await transitionUpload(upload.id, ["ready_for_processing", "processing"], "failed", { ...fields, ...outboxFields(key4, entries2, at) }, at, new Date(Date.parse(at) + SETTLE_BOUND_MS).toISOString());
    if (!failed2) return await getUpload(upload.id) ?? upload;
    upload = failed2;
  }
  if (upload.status === "failed") await settleFailedUpload(ports2, upload);
  return upload;
}
async function settleFailedUpload(ports2, upload) {
  if ((upload.credits_charged ?? 0) > 0) {
    await refund(upload.organization_id, `refund:upload:${upload.id}`, `upload:${upload.id}`, { reason: "upload failed", resourceId: upload.id });
  }
  await flushOutbox(ports2, uploadItemKey(upload.id));
  if (upload.source !== "api_pool") await settleUpload(upload.id);
}

// lambdas/uploads/reconcile.ts
var LEASE_MS = 10 * 6e4;
var READY_GIVE_UP_MS = 60 * 6e4;
async function recoverUploads(ports2) {
  const summary = { resumed: 0, removed: 0, restarted: 0, failed: 0, settled: 0 };
  for (const upload of await claimStaleUploads(nowMs(), LEASE_MS)) {
    try {
      await recoverOne(ports2, upload, summary);
    } catch (error) {
      logger.error("upload recovery failed", { upload_id: upload.id, status: upload.status, error });
    }
  }
  if (Object.values(summary).some((n) => n > 0)) logger.warn("recovered interrupted uploads", { ...summary });
  return summary;
}
async function recoverOne(ports2, upload, summary) {
  switch (upload.status) {
    case "charging": {
      const charge = await chargeOf(upload.organization_id, `upload:${upload.id}`);
      if (charge) {
        await becomeReady(ports2, upload, charge.amount);
        await ports2.workflow(upload.id);
        summary.resumed++;
      } else {
        await deleteChargingUpload(upload.id);
        summary.removed++;
      }
      return;
    }
    case "ready_for_processing":
      if (nowMs() - Date.parse(upload.updated_at) > READY_GIVE_UP_MS) {
        await settleOwedToPool(ports2, await failUpload(ports2, upload, "Processing could not be started"));
        summary.failed++;
      } else {
        await ports2.workflow(upload.id);
        summary.restarted++;
      }
      return;
    case "processing":
      await settleOwedToPool(ports2, await failUpload(ports2, upload, "Processing did not finish in time"));
      summary.failed++;
      return;
    case "completed":
      await finalize(ports2, { upload_id: upload.id });
      await settleOwedToPool(ports2, upload);
      summary.settled++;
      return;
    case "failed":
      await settleFailedUpload(ports2, upload);
      await settleOwedToPool(ports2, upload);
      summary.settled++;
      return;
    default:
      return;
  }
}
async function settleOwedToPool(ports2, upload) {
  if (upload.source === "api_pool" && (upload.status === "completed" || upload.status === "failed")) await ports2.settlePool(upload);
}
async function resumeUnfinishedUploads(ports2, startedBeforeIso) {
  let resumed = 0;
  for (const upload of await claimStaleUploads(nowMs(), LEASE_MS, startedBeforeIso)) {
    if (upload.status === "ready_for_processing" || upload.status === "processing") {
      if (upload.status === "processing") await transitionUpload(upload.id, ["processing"], "processing", {}, nowIso(), new Date(nowMs() + processingBoundMs()).toISOString());
      await ports2.workflow(upload.id);
      resumed++;
    } else {
      await recoverOne(ports2, upload, { resumed: 0, removed: 0, restarted: 0, failed: 0, settled: 0 }).catch(
        (error) => logger.error("upload recovery failed", { upload_id: upload.id, error })
      );
    }
  }
  if (resumed) logger.warn("resumed unfinished uploads after a restart", { resumed });
  return resumed;
}

// lambdas/recovery/recovery-job.ts
var OUTBOX_GRACE_MS = 6e4;
async function runRecovery(ports2) {
  const uploads2 = await recoverUploads(ports2);
  const contacts = await recoverCreatingContacts();
  const events = await drainOutbox(ports2, new Date(nowMs() - OUTBOX_GRACE_MS).toISOString());
  const summary = { uploads: uploads2, contacts, events };
  logger.info("recovery run", summary);
  return summary;
}
async function recoverAfterRestart(ports2, startedAtIso) {
  const leases = await releaseLeasesTakenBefore([POOL_LEASE], Date.parse(startedAtIso));
  const uploads2 = await resumeUnfinishedUploads(ports2, startedAtIso);
  const contacts = await recoverCreatingContacts(startedAtIso);
  const events = await drainOutbox(ports2, startedAtIso);
  if (leases || uploads2 || contacts.resumed || contacts.removed || events.events) logger.warn("recovered after a restart", { leases, uploads: uploads2, contacts, events });
}

// local/scheduled-jobs.ts
var PROCESS_STARTED_AT = (/* @__PURE__ */ new Date()).toISOString();
function everyInterval(name, intervalMs2, job) {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void withLogContext(async () => {
      logger.appendKeys({ job: name });
      try {
        await job();
      } catch (error) {
        logger.error(`local schedule ${name} failed`, { error });
      } finally {
        running = false;
      }
    });
  }, intervalMs2);
  timer.unref();
  return { name, stop: async () => clearInterval(timer) };
}
var startBillingPeriodSchedule = async () => everyInterval("billing-period", Number(process.env.LOCAL_BILLING_JOB_INTERVAL_MS ?? 36e5), runBillingPeriodJob);
var startContactPoolSchedule = async (ports2) => everyInterval("contact-pool", Number(process.env.CONTACT_POOL_INTERVAL_MS ?? 15e3), () => runContactPool(ports2));
var startRecoverySchedule = async (ports2) => {
  await recoverAfterRestart(ports2, PROCESS_STARTED_AT).catch((error) => logger.error("recovery after a restart failed", { error }));
  return everyInterval("recovery", Number(process.env.LOCAL_RECOVERY_INTERVAL_MS ?? 6e4), () => runRecovery(ports2));
};

// lambdas/webhooks/metrics.ts
var METRICS_NAMESPACE = "PhoneValidation/Webhooks";
var AUTO_DISABLED_METRIC = "EndpointsAutoDisabled";
function publishAutoDisabledMetric() {
  if (!config().AWS_LAMBDA_FUNCTION_NAME) return;
  const line2 = {
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [[]], Metrics: [{ Name: AUTO_DISABLED_METRIC, Unit: "Count" }] }]
    },
    [AUTO_DISABLED_METRIC]: 1
  };
  process.stdout.write(`${JSON.stringify(line2)}
`);
}

// lambdas/webhooks/delivery.ts
async function processDelivery(ports2, deliveryId) {
  const record9 = await getDelivery(deliveryId);
  if (!record9 || record9.state !== "pending" || !record9.next_attempt_at) return { kind: "gone" };
  const dueAtMs = Date.parse(record9.next_attempt_at);
  const startedMs = nowMs();
  if (dueAtMs > startedMs) return { kind: "not_due", dueAtMs };
  if (!await claimAttempt(record9, startedMs, config().WEBHOOK_ATTEMPT_LEASE_MS)) return { kind: "busy" };
  const target = await resolveTarget(ports2, record9);
  if ("skip" in target) {
    await markExhausted(record9.id, target.skip, nowIso());
    return { kind: "skipped", reason: target.skip };
  }
  const attemptNo = record9.attempt_count + 1;
  const attemptedAt = new Date(startedMs).toISOString();
  const outcome = await sendSigned(ports2.net, {
    url: target.url,
    secret: target.secret,
    body: record9.body,
    eventType: record9.event_type,
    eventId: record9.event_id,
    deliveryId: record9.id,
    attempt: attemptNo
  });
  crashPoint("webhook.after-send");
  const nextMs = outcome.ok || isPermanentFailure(outcome.statusCode) ? null : nextAttemptAtMs(attemptNo, startedMs);
  const state = outcome.ok ? "succeeded" : nextMs === null ? "exhausted" : "pending";
  const nextAt = nextMs === null ? null : new Date(nextMs).toISOString();
  const recorded2 = await recordAttempt(
    record9,
    { attempt: attemptNo, attempted_at: attemptedAt, status_code: outcome.statusCode, error: outcome.error },
    { state, next_attempt_at: nextAt },
    nowIso()
  );
  if (!recorded2) {
    return { kind: "busy" };
  }
  logger.info("webhook attempt", {
    delivery_id: record9.id,
    webhook_id: record9.webhook_id,
    event_id: record9.event_id,
    attempt: attemptNo,
    max_attempts: MAX_ATTEMPTS3,
    status_code: outcome.statusCode,
    error: outcome.error,
    state
  });
  if (record9.kind === "webhook" && record9.webhook_id) await countOutcome(record9.webhook_id, outcome.ok);
  if (nextMs !== null) await enqueueDelivery(ports2.deliveryQueue, record9.id, nextMs);
  return { kind: "attempted", attempt: attemptNo, state, statusCode: outcome.statusCode, error: outcome.error };
}
async function resolveTarget(ports2, record9) {
  if (record9.kind === "callback") {
    if (!record9.callback_url || !record9.callback_secret) return { skip: "callback has no url or secret" };
    return withSecret(record9.callback_url, () => openStored(ports2, record9.callback_secret, callbackSecretContext(record9.organization_id, record9.callback_url)));
  }
  const endpoint = record9.webhook_id ? await getEndpoint(record9.webhook_id) : null;
  if (!endpoint) return { skip: "endpoint deleted" };
  if (!endpoint.is_active) return { skip: "endpoint inactive" };
  return withSecret(endpoint.url, () => openStored(ports2, endpoint.secret, webhookSecretContext(endpoint.organization_id, endpoint.id)));
}
async function withSecret(url, open2) {
  try {
    return { url, secret: await open2() };
  } catch (error) {
    if (!(error instanceof SecretUnopenable)) throw error;
    logger.error("webhook secret does not open", { error });
    return { skip: "signing secret could not be opened" };
  }
}
async function countOutcome(webhookId, ok2) {
  const at = nowIso();
  if (ok2) return recordEndpointSuccess(webhookId, at);
  const counted = await recordEndpointFailure(webhookId, at);
  if (counted && counted.is_active && counted.consecutive_failures >= AUTO_DISABLE_AFTER_FAILURES) {
    if (await disableEndpoint(webhookId, at, AUTO_DISABLE_AFTER_FAILURES)) {
      logger.warn("webhook endpoint auto-disabled", { webhook_id: webhookId, consecutive_failures: counted.consecutive_failures });
      publishAutoDisabledMetric();
    }
  }
}

// lambdas/webhooks/sweeper.ts
async function sweepDueDeliveries(ports2, options = {}) {
  const dueBy = new Date(nowMs() - (options.overdueMs ?? 6e4)).toISOString();
  const ids = await dueDeliveryIds(dueBy, options.limit ?? 200);
  let attempted = 0;
  const queue = [...ids];
  const worker = async () => {
    for (let id = queue.shift(); id; id = queue.shift()) {
      try {
        const result = await processDelivery(ports2, id);
        if (result.kind === "attempted" || result.kind === "skipped") attempted++;
      } catch (error) {
        logger.error("webhook sweep: delivery failed", { delivery_id: id, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 10, ids.length) }, worker));
  if (ids.length) logger.info("webhook sweep", { found: ids.length, attempted });
  return { found: ids.length, attempted };
}
var ports = { ...awsDeliveryPorts(), ...awsOpenPorts() };

// local/webhook-worker.ts
var MAX_TIMER_MS = 2 ** 31 - 1;
function createLocalDeliveryQueue(ports2) {
  const timers = /* @__PURE__ */ new Set();
  let stopped = false;
  const queue = {
    async enqueue(deliveryId, dueAtMs) {
      if (stopped) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        processDelivery(ports2, deliveryId).then((result) => result.kind === "not_due" ? queue.enqueue(deliveryId, result.dueAtMs) : void 0).catch((error) => logger.error("local webhook delivery failed", { delivery_id: deliveryId, error }));
      }, Math.min(MAX_TIMER_MS, Math.max(0, dueAtMs - nowMs())));
      timer.unref();
      timers.add(timer);
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    }
  };
  return queue;
}
async function startLocalWebhookSweeper(ports2) {
  let sweeping = false;
  const sweeper = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweepDueDeliveries(ports2, { overdueMs: Number(process.env.LOCAL_WEBHOOK_SWEEP_OVERDUE_MS ?? 6e4) }).catch((error) => logger.error("local webhook sweep failed", { error })).finally(() => {
      sweeping = false;
    });
  }, Number(process.env.LOCAL_WEBHOOK_SWEEP_INTERVAL_MS ?? 6e4));
  sweeper.unref();
  return { name: "webhook-sweeper", stop: async () => clearInterval(sweeper) };
}

// lambdas/spam/carrier-item.ts
import { setTimeout as sleep4 } from "node:timers/promises";

// lambdas/spam/edge-trigger.ts
function isSpamTransition(previouslyFlagged, outcome) {
  return outcome.status === "completed" && outcome.spam_detected === true && previouslyFlagged !== true;
}

// lambdas/spam/run-record.ts
function plannedRun(n, item, simulated) {
  return {
    test_run_id: item.test_run_id,
    number_id: n.id,
    organization_id: n.organization_id,
    carrier: item.carrier,
    day: item.day,
    status: "pending",
    tested_at: item.planned_at,
    spam_detected: null,
    spam_label: null,
    sip_response_code: null,
    caller_id_verified: null,
    same_carrier_warning: n.carrier === item.carrier,
    captured_at: null,
    screenshot_key: null,
    screenshot_content_type: null,
    error: null,
    simulated
  };
}
async function recordRun(n, run, extra = {}) {
  const status = {
    carrier: run.carrier,
    status: run.status,
    spam_detected: run.spam_detected,
    spam_label: run.spam_label,
    test_run_id: run.test_run_id,
    tested_at: run.tested_at,
    captured_at: run.captured_at,
    screenshot_key: run.screenshot_key,
    screenshot_content_type: run.screenshot_content_type,
    same_carrier_warning: run.same_carrier_warning,
    simulated: run.simulated
  };
  const previous = await setCarrierStatus(n.id, status, nowIso(), extra);
  if (previous) await putRun(run);
  return previous;
}

// lambdas/spam/carrier-item.ts
async function runWorkItem(ports2, item, port, options) {
  const n = await getNumber(item.number_id);
  if (!n || !n.verified) return { status: "skipped", alerted: false };
  const running = { ...plannedRun(n, item, port.simulated), status: "running", tested_at: nowIso() };
  if (!await recordRun(n, running)) return { status: "skipped", alerted: false };
  let outcome;
  try {
    outcome = await withTimeout(port.runTest({ testRunId: running.test_run_id, numberId: n.id, phoneNumber: n.phone_number, carrier: running.carrier, day: running.day }), options.timeoutMs);
  } catch (error) {
    if (!options.finalAttempt) throw error;
    outcome = { status: "failed", spam_detected: null, spam_label: null, sip_response_code: null, caller_id_verified: null, originating_carrier: null, screenshot: null, captured_at: null, error: error.message, simulated: port.simulated };
  }
  const ownCarrier = n.carrier ?? outcome.originating_carrier;
  const done = {
    ...running,
    status: outcome.status,
    spam_detected: outcome.status === "completed" ? outcome.spam_detected : null,
    spam_label: outcome.status === "completed" ? outcome.spam_label : null,
    sip_response_code: outcome.sip_response_code,
    caller_id_verified: outcome.caller_id_verified,
    same_carrier_warning: ownCarrier === running.carrier,
    captured_at: outcome.captured_at,
    error: outcome.error,
    simulated: outcome.simulated
  };
  if (outcome.screenshot) {
    const key5 = screenshotKey(n.organization_id, n.id, running.day, running.carrier, outcome.screenshot.contentType);
    try {
      await putScreenshot(key5, outcome.screenshot.bytes, outcome.screenshot.contentType);
      done.screenshot_key = key5;
      done.screenshot_content_type = outcome.screenshot.contentType;
      done.captured_at ??= nowIso();
    } catch (error) {
      logger.error("screenshot upload failed", { number_id: n.id, carrier: running.carrier, error });
    }
  }
  const flag2 = done.status === "completed" && done.spam_detected !== null ? done.spam_detected : void 0;
  const key4 = numberItemKey(n.id);
  const onSpamEdge = flag2 === true ? outboxFields(key4, [{ organization_id: n.organization_id, event: spamDetectedEvent(n, done) }], nowIso()) : void 0;
  const previous = await recordRun(n, done, { spamFlag: flag2, ownCarrier: n.carrier ? null : outcome.originating_carrier, onSpamEdge });
  if (!previous) return { status: done.status, alerted: false };
  const alerted = isSpamTransition(previous.previousFlag, done);
  if (alerted) await flushOutbox(ports2, key4);
  return { status: done.status, alerted };
}
async function withTimeout(work, ms) {
  const abort = new AbortController();
  try {
    return await Promise.race([work, sleep4(ms, void 0, { signal: abort.signal }).then(() => Promise.reject(new Error(`carrier test took longer than ${ms} ms`)))]);
  } finally {
    abort.abort();
  }
}
function spamDetectedEvent(n, done) {
  return buildEvent({
    type: "spam.detected",
    // Stable per test, so a re-published event is the same event for receivers that de-duplicate.
    id: `evt_${sha256Hex(`spam.detected:${done.test_run_id}`).slice(0, 32)}`,
    data: {
      number_id: n.id,
      phone_number: n.phone_number,
      carrier: done.carrier,
      spam_label: done.spam_label,
      sip_response_code: done.sip_response_code,
      caller_id_verified: done.caller_id_verified,
      same_carrier_warning: done.same_carrier_warning,
      test_run_id: done.test_run_id,
      screenshot_available: done.screenshot_key !== null,
      detected_at: done.captured_at ?? done.tested_at
    }
  });
}

// lambdas/spam/in-process.ts
async function runInProcess(ports2, items, port) {
  const { SPAM_RUN_CONCURRENCY: concurrency, SPAM_ITEM_ATTEMPTS: attempts, SPAM_TEST_TIMEOUT_MS: timeoutMs } = config();
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await runWithRetries(ports2, items[index], port, Math.max(1, attempts), timeoutMs);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return results;
}
async function runWithRetries(ports2, item, port, attempts, timeoutMs) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runWorkItem(ports2, item, port, { finalAttempt: attempt >= attempts, timeoutMs });
    } catch (error) {
      logger.warn("spam work item failed", { number_id: item.number_id, carrier: item.carrier, attempt, error });
      if (attempt >= attempts) return { status: "failed", alerted: false };
    }
  }
}

// lambdas/spam/plan.ts
async function planDailyRun(options) {
  const day = dayOf(nowMs());
  const byOrg2 = /* @__PURE__ */ new Map();
  for await (const n of verifiedNumbers()) {
    if (options.organizationId && n.organization_id !== options.organizationId) continue;
    const list = byOrg2.get(n.organization_id);
    if (list) list.push(n);
    else byOrg2.set(n.organization_id, [n]);
  }
  const summary = {
    day,
    organizations: 0,
    skipped_organizations: 0,
    numbers_tested: 0,
    numbers_beyond_limit: 0,
    work_items: 0,
    queued: 0,
    tests_completed: 0,
    tests_failed: 0,
    spam_detected_events: 0,
    simulated: options.simulated
  };
  const numbers = [];
  for (const [orgId, verified] of byOrg2) {
    const org = await getOrganization(orgId);
    if (!org || !org.subscription_active) {
      summary.skipped_organizations++;
      continue;
    }
    summary.organizations++;
    const limit = effectiveLimit(org);
    const inLimit = inLimitIds(limit === null ? verified : await listOrgNumbers(orgId, limit), limit);
    for (const n of verified) {
      if (inLimit.has(n.id)) numbers.push(n);
      else summary.numbers_beyond_limit++;
    }
  }
  const items = await planItems(numbers, day, options.simulated);
  summary.numbers_tested = new Set(items.map((i) => i.number_id)).size;
  summary.work_items = items.length;
  return { summary, items };
}
async function planItems(numbers, day, simulated) {
  const planned = new Array(numbers.length);
  let next = 0;
  const worker = async () => {
    while (next < numbers.length) {
      const index = next++;
      const n = numbers[index];
      const items = [];
      for (const carrier2 of CARRIERS) {
        const item = { test_run_id: newId(), number_id: n.id, carrier: carrier2, day, planned_at: nowIso() };
        if (!await recordRun(n, plannedRun(n, item, simulated))) break;
        items.push(item);
      }
      planned[index] = items.length === CARRIERS.length ? items : [];
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(config().SPAM_RUN_CONCURRENCY, numbers.length)) }, worker));
  return planned.flat();
}

// lambdas/spam/work-queue.ts
import { SendMessageBatchCommand, SQSClient as SQSClient2 } from "@aws-sdk/client-sqs";
import { setTimeout as sleep5 } from "node:timers/promises";
var client5 = null;
async function queueWorkItems(queueUrl, items) {
  client5 ??= new SQSClient2({});
  for (let i = 0; i < items.length; i += 10) {
    let batch = items.slice(i, i + 10).map((item, j) => ({ Id: String(j), MessageBody: JSON.stringify(item) }));
    for (let attempt = 1; batch.length; attempt++) {
      const out = await client5.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: batch }));
      const failed2 = new Set((out.Failed ?? []).map((f2) => f2.Id));
      batch = batch.filter((entry) => failed2.has(entry.Id));
      if (batch.length && attempt >= 5) throw new Error(`spam queue refused ${batch.length} work items: ${JSON.stringify(out.Failed)}`);
      if (batch.length) await sleep5(100 * 2 ** attempt);
    }
  }
}

// lambdas/spam/daily-run.ts
async function runDailySpamTests(ports2, options = {}) {
  const port = options.port ?? ports2.carrierTests;
  const { summary, items } = await planDailyRun({ simulated: port.simulated, organizationId: options.organizationId });
  const queueUrl = config().SPAM_QUEUE_URL;
  if (queueUrl) {
    await queueWorkItems(queueUrl, items);
    summary.queued = items.length;
  } else {
    for (const r of await runInProcess(ports2, items, port)) {
      if (r.status === "completed") summary.tests_completed++;
      else if (r.status === "failed") summary.tests_failed++;
      if (r.alerted) summary.spam_detected_events++;
    }
  }
  logger.info("spam test run", { ...summary });
  return summary;
}
async function runScheduledSpamTests(ports2) {
  if (!await claimScheduledDay(dayOf(nowMs()), nowIso())) return null;
  return runDailySpamTests(ports2);
}

// local/spam-schedule.ts
var startLocalSpamSchedule = async (ports2) => everyInterval("spam-daily-tests", Number(process.env.LOCAL_SPAM_CHECK_INTERVAL_MS ?? 36e5), () => runScheduledSpamTests(ports2));

// local/workers.ts
var WORKER_STARTERS = [startContactPoolSchedule, startBillingPeriodSchedule, startLocalWebhookSweeper, startLocalSpamSchedule, startRecoverySchedule];

// local/seed.ts
import { GetCommand as GetCommand13, PutCommand as PutCommand5, UpdateCommand as UpdateCommand13 } from "@aws-sdk/lib-dynamodb";

// lambdas/admin/admin.ts
var AdminError = class extends Error {
};
async function createOrganization(input) {
  if (!input.name.trim()) throw new AdminError("organization name must not be empty");
  const org = {
    id: newId(),
    name: input.name.trim(),
    subscription_active: input.subscriptionActive ?? false,
    spam_included_numbers: 5,
    spam_addon_numbers: 0,
    created_at: nowIso()
  };
  await putOrganization(org);
  await ensureBalance(org.id, {
    subscription: input.monthlyAllocation ?? 0,
    monthly_allocation: input.monthlyAllocation ?? 0,
    subscription_cap: input.cap ?? input.monthlyAllocation ?? null
  });
  if (input.credits) await addPurchased(org.id, input.credits, "initial credits");
  return org;
}
async function createUser(email) {
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new AdminError(`'${email}' is not an email address`);
  const user = { id: newId(), email, created_at: nowIso() };
  await putUser(user);
  return user;
}
async function addMember(orgId, userId, role = "member") {
  await requireOrg(orgId);
  await requireUser(userId);
  await putMembership(orgId, userId, role, nowIso());
}
async function removeMember(orgId, userId) {
  await requireOrg(orgId);
  if (!await deleteMembership(orgId, userId)) throw new AdminError(`user ${userId} is not a member of organization ${orgId}`);
  let revoked = 0;
  for (const key4 of await listApiKeys(orgId)) {
    if (key4.created_by_user_id === userId && !key4.revoked_at) {
      await revokeApiKey(key4.key_hash, nowIso());
      revoked++;
    }
  }
  return { revokedKeys: revoked };
}
async function mintKey(orgId, userId, expiresAt) {
  await requireOrg(orgId);
  await requireUser(userId);
  const membership = await getMembership(orgId, userId);
  if (!membership) throw new AdminError(`user ${userId} is not a member of organization ${orgId}`);
  if (membership.role !== "owner") throw new AdminError(`only an owner of organization ${orgId} can mint keys`);
  let expires = null;
  if (expiresAt !== void 0) {
    const ms = /^\d+$/.test(expiresAt) ? Number(expiresAt) * 1e3 : Date.parse(expiresAt);
    if (!Number.isFinite(ms)) throw new AdminError(`expires_at '${expiresAt}' is neither an ISO date nor Unix seconds`);
    expires = new Date(ms).toISOString();
  }
  const key4 = generateApiKey();
  const record9 = {
    id: newId(),
    organization_id: orgId,
    created_by_user_id: userId,
    display_prefix: displayPrefix(key4),
    key_hash: hashApiKey(key4),
    scopes: [...SCOPES],
    created_at: nowIso(),
    expires_at: expires,
    revoked_at: null
  };
  await putApiKey(record9);
  const { key_hash: _hash, ...visible } = record9;
  return { key: key4, record: visible };
}
async function revokeKey(keyId) {
  const record9 = await getApiKeyById(keyId);
  if (!record9) throw new AdminError(`API key ${keyId} does not exist`);
  await revokeApiKey(record9.key_hash, nowIso());
}
async function listKeys(orgId) {
  await requireOrg(orgId);
  return (await listApiKeys(orgId)).map(({ key_hash: _hash, ...rest }) => rest);
}
async function requireOrg(orgId) {
  const org = await getOrganization(orgId);
  if (!org) throw new AdminError(`organization ${orgId} does not exist`);
  return org;
}
async function requireUser(userId) {
  const user = await getUser(userId);
  if (!user) throw new AdminError(`user ${userId} does not exist`);
  return user;
}

// local/seed.ts
var SEED_KEY = { pk: "LOCAL#SEED", sk: "META" };
async function ensureDemoAccount() {
  const existing = await db().send(new GetCommand13({ TableName: tableName(), Key: SEED_KEY }));
  if (existing.Item) {
    const organizationId = String(existing.Item.organization_id);
    const userId = String(existing.Item.user_id);
    if (existing.Item.key_shown !== false) return { organizationId, userId, apiKey: null };
    if (typeof existing.Item.key_id === "string") {
      await revokeKey(existing.Item.key_id).catch((error) => {
        if (!(error instanceof AdminError)) throw error;
      });
    }
    const minted2 = await mintKey(organizationId, userId);
    await db().send(
      new UpdateCommand13({ TableName: tableName(), Key: SEED_KEY, UpdateExpression: "SET key_id = :k", ExpressionAttributeValues: { ":k": minted2.record.id } })
    );
    return { organizationId, userId, apiKey: minted2.key };
  }
  const org = await createOrganization({ name: "Demo Organization", subscriptionActive: true, monthlyAllocation: 1e4, credits: 1e6 });
  const user = await createUser("demo@example.com");
  await addMember(org.id, user.id, "owner");
  const minted = await mintKey(org.id, user.id);
  await db().send(
    new PutCommand5({
      TableName: tableName(),
      Item: { ...SEED_KEY, ...stamp("LocalSeed"), organization_id: org.id, user_id: user.id, key_id: minted.record.id, key_shown: false, created_at: nowIso() }
    })
  );
  return { organizationId: org.id, userId: user.id, apiKey: minted.key };
}

// lambdas/console/handler.ts
import * as z24 from "zod";

// lambdas/console/directory.ts
import { QueryCommand as QueryCommand7 } from "@aws-sdk/lib-dynamodb";
async function listMembers(orgId) {
  const out = await db().send(
    new QueryCommand7({
      TableName: tableName(),
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :sk)",
      ExpressionAttributeValues: { ":pk": `ORG#${orgId}`, ":sk": "MEMBER#" }
    })
  );
  return Promise.all(
    (out.Items ?? []).map(async (item) => ({
      user_id: String(item.user_id),
      email: (await getUser(String(item.user_id)))?.email ?? null,
      role: String(item.role),
      created_at: String(item.created_at)
    }))
  );
}
async function listLedger(orgId, limit) {
  const out = await db().send(
    new QueryCommand7({
      TableName: tableName(),
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :pk",
      ExpressionAttributeValues: { ":pk": `ORG#${orgId}#LEDGER` },
      ScanIndexForward: false,
      Limit: limit
    })
  );
  return (out.Items ?? []).map((item) => {
    const subscription = Number(item.subscription_delta ?? 0);
    const purchased = Number(item.purchased_delta ?? 0);
    return {
      change_id: String(item.change_id),
      kind: String(item.kind),
      amount: subscription + purchased,
      subscription_delta: subscription,
      purchased_delta: purchased,
      reason: String(item.reason ?? ""),
      resource_id: item.resource_id ? String(item.resource_id) : null,
      created_at: String(item.created_at)
    };
  });
}

// lambdas/console/principal.ts
function verifiedClaims(event) {
  return event.requestContext.authorizer?.jwt?.claims ?? null;
}
function userIdOf(claims) {
  const id = claims.username ?? claims.sub;
  return typeof id === "string" && id ? id : null;
}
async function consolePrincipal(event) {
  const claims = verifiedClaims(event);
  const userId = claims ? userIdOf(claims) : null;
  if (!userId) throw new AuthenticationFailed("Sign in to use the console");
  const user = await getUser(userId);
  if (!user) throw new Forbidden("This account is not a user of the service; ask an organization owner to add you");
  const [orgId] = await listMembershipsOfUser(userId);
  const membership = orgId ? await getMembership(orgId, userId) : null;
  const organization = orgId ? await getOrganization(orgId) : null;
  if (!orgId || !membership || !organization) throw new Forbidden("This account is not a member of any organization");
  return { user, organization, organizationId: orgId, userId, role: membership.role === "owner" ? "owner" : "member" };
}
function requireOwner(principal) {
  if (principal.role !== "owner") throw new Forbidden("Only an organization owner can do this");
}

// lambdas/console/web-upload-repository.ts
import { GetCommand as GetCommand14 } from "@aws-sdk/lib-dynamodb";
import * as z23 from "zod";
var optionalName = z23.string().optional();
var draftSchema = z23.looseObject({
  id: z23.string(),
  organization_id: z23.string(),
  user_id: z23.string(),
  filename: z23.string(),
  file_size_bytes: z23.number(),
  status: z23.enum(["pending_mapping", "validating", "validation_failed", "awaiting_confirmation", "confirming", "confirmed"]),
  header: z23.array(z23.string()),
  preview: z23.array(z23.array(z23.string())),
  total_rows: z23.number(),
  validated_rows: z23.number().int().min(0).optional(),
  suggested: z23.looseObject({ phone_columns: z23.array(z23.string()), full_name_column: optionalName, first_name_column: optionalName, last_name_column: optionalName }),
  mapping: z23.looseObject({ phoneColumns: z23.array(z23.string()), fullNameColumn: optionalName, firstNameColumn: optionalName, lastNameColumn: optionalName }).nullable(),
  validation: z23.looseObject({
    total_rows: z23.number(),
    valid_row_count: z23.number(),
    valid_number_count: z23.number(),
    invalid_count: z23.number(),
    duplicate_count: z23.number(),
    identity: z23.boolean(),
    price: z23.looseObject({ standard: z23.number(), max: z23.number() })
  }).nullable(),
  failure: z23.looseObject({ status: z23.number(), detail: z23.unknown() }).nullable(),
  invalid_cells: z23.array(z23.looseObject({ row: z23.number(), column: z23.string(), value: z23.string(), reason: z23.string() })),
  created_at: z23.string(),
  updated_at: z23.string()
});
var draftKey = (id) => ({ pk: `WEBUPLOAD#${id}`, sk: "META" });
async function insertDraft(draft) {
  await putItem("WebUploadDraft", { ...draftKey(draft.id), gsi1pk: `ORG#${draft.organization_id}#WEBUPLOADS`, gsi1sk: `${draft.created_at}#${draft.id}`, ...draft }, IF_NEW);
}
async function getDraft(id) {
  const out = await db().send(new GetCommand14({ TableName: tableName(), Key: draftKey(id), ConsistentRead: true }));
  return readEntity("WebUploadDraft", draftSchema, out.Item);
}
async function transitionDraft(id, from, to, fields, at) {
  const { sets, names, values } = setClause({ ...fields, status: to, updated_at: at });
  const allowed = from.map((_, i) => `:from${i}`);
  const item = await updateReturning({
    Key: draftKey(id),
    UpdateExpression: `SET ${sets.join(", ")}`,
    ConditionExpression: `attribute_exists(pk) AND #status_now IN (${allowed.join(", ")})`,
    ExpressionAttributeNames: { ...names, "#status_now": "status" },
    ExpressionAttributeValues: { ...values, ...Object.fromEntries(from.map((s, i) => [`:from${i}`, s])) }
  });
  return item ? readExisting("WebUploadDraft", draftSchema, item) : null;
}
async function recordValidationProgress(id, validatedRows, at) {
  return updateItem({
    Key: draftKey(id),
    UpdateExpression: "SET validated_rows = :n, updated_at = :at",
    ConditionExpression: "attribute_exists(pk) AND #status = :validating AND (attribute_not_exists(validated_rows) OR validated_rows < :n)",
    ExpressionAttributeNames: { "#status": "status" },
    ExpressionAttributeValues: { ":n": validatedRows, ":at": at, ":validating": "validating" }
  });
}
async function listOpenDrafts(orgId, limit = 50) {
  const drafts = [];
  for await (const item of queryItems({ IndexName: "gsi1", KeyConditionExpression: "gsi1pk = :pk", ExpressionAttributeValues: { ":pk": `ORG#${orgId}#WEBUPLOADS` }, ScanIndexForward: false }, limit)) {
    if (item.status !== "confirmed") drafts.push(readExisting("WebUploadDraft", draftSchema, item));
  }
  return drafts;
}

// lambdas/console/web-upload.ts
var PREVIEW_ROWS = 5;
var VALIDATION_PROGRESS_ROWS = 1e4;
var INVALID_CELLS_KEPT = 100;
var originalKey = (d) => `web-drafts/${d.organization_id}/${d.id}.csv`;
var reportKey = (d) => `web-drafts/${d.organization_id}/${d.id}-report.csv`;
var plannedKey = (d) => `web-drafts/${d.organization_id}/${d.id}-planned.json`;
var clean = (value) => JSON.parse(JSON.stringify(value));
async function startWebUpload(principal, filename, csv) {
  if (csv.length === 0) throw new InvalidInput("The file is empty; it needs a header row and at least 100 numbers");
  if (csv.length > MAX_CSV_BYTES) throw new TooLarge(`The file is larger than ${MAX_CSV_BYTES} bytes`);
  const [header, ...rows] = readCsv(csv).records;
  if (!header) throw new InvalidInput("The file is empty; it needs a header row and at least 100 numbers");
  const columns = header.fields.map((h) => h.trim());
  const preview = rows.slice(0, PREVIEW_ROWS).map((r) => r.fields);
  const at = nowIso();
  const draft = {
    id: newId(),
    organization_id: principal.organizationId,
    user_id: principal.userId,
    filename: safeFilename(filename),
    file_size_bytes: csv.length,
    status: "pending_mapping",
    header: columns,
    preview,
    total_rows: rows.length,
    suggested: clean(suggestMapping(columns, rows.slice(0, 50).map((r) => r.fields))),
    mapping: null,
    validation: null,
    failure: null,
    invalid_cells: [],
    created_at: at,
    updated_at: at
  };
  await putObject(filesBucket(), originalKey(draft), csv, "text/csv");
  await insertDraft(draft);
  return draft;
}
function suggestMapping(header, sample) {
  const byName = (re) => header.find((h) => re.test(h));
  const phone = header.filter((h, i) => {
    if (/phone|mobile|cell|tel|number|fax/i.test(h)) return true;
    const cells = sample.map((r) => (r[i] ?? "").trim()).filter(Boolean);
    return cells.length > 0 && cells.filter((c) => normalizeUsCa(c)).length / cells.length >= 0.5;
  });
  const full = byName(/^(full[\s_-]?name|name|contact[\s_-]?name)$/i);
  const first = byName(/^first[\s_-]?name$|^given[\s_-]?name$|^first$/i);
  const last = byName(/^last[\s_-]?name$|^surname$|^family[\s_-]?name$|^last$/i);
  return {
    phone_columns: phone.slice(0, MAX_PHONE_COLUMNS),
    ...full ? { full_name_column: full } : first && last ? { first_name_column: first, last_name_column: last } : {}
  };
}
async function ownDraft(principal, id) {
  const draft = await getDraft(id);
  if (!draft || draft.organization_id !== principal.organizationId) throw new NotFound("Upload not found");
  return draft;
}
async function mapWebUpload(principal, id, mapping) {
  const draft = await ownDraft(principal, id);
  if (mapping.phoneColumns.length === 0) throw new InvalidInput("Choose at least one phone column");
  if (mapping.phoneColumns.length > MAX_PHONE_COLUMNS) throw new InvalidInput(`At most ${MAX_PHONE_COLUMNS} phone columns`);
  if (Boolean(mapping.firstNameColumn) !== Boolean(mapping.lastNameColumn)) throw new InvalidInput("first_name_column and last_name_column go together");
  if (mapping.fullNameColumn && mapping.firstNameColumn) throw new InvalidInput("Use either full_name_column or first_name_column with last_name_column, not both");
  const started = await transitionDraft(draft.id, ["pending_mapping", "validation_failed", "awaiting_confirmation"], "validating", { mapping: clean(mapping), failure: null, validation: null, validated_rows: 0 }, nowIso());
  if (!started) throw new Conflict(`This upload is ${draft.status}; its mapping can no longer change`);
  const bytes = await getObject(filesBucket(), originalKey(draft));
  if (!bytes) throw new Error(`web upload ${draft.id}: original missing`);
  const parsed = readCsv(bytes);
  const [header, ...rows] = parsed.records;
  const fields = rows.map((r) => r.fields);
  let plan = null;
  let failure = null;
  let rowsValidated = 0;
  const progress = async (rowsDone) => {
    rowsValidated = rowsDone;
    try {
      await recordValidationProgress(draft.id, rowsDone, nowIso());
    } catch (error) {
      logger.warn("web upload: validation progress not recorded", { upload_id: draft.id, error: String(error) });
    }
  };
  try {
    plan = await planUploadInSteps(header.fields, fields, mapping, { every: VALIDATION_PROGRESS_ROWS, progress });
  } catch (error) {
    if (!isRefusal(error)) {
      await transitionDraft(draft.id, ["validating"], "pending_mapping", {}, nowIso());
      throw error;
    }
    failure = { status: statusOf(error), detail: error.detail };
    if (error instanceof TooFewNumbers) plan = planUpload(header.fields, fields, mapping, { minimum: 0 });
  }
  const invalid2 = plan ? invalidCells(plan, fields, header.fields, mapping) : [];
  await putObject(filesBucket(), reportKey(draft), reportCsv(invalid2, failure), "text/csv");
  if (plan && !failure) {
    const layout = layoutOf(parsed);
    layout.bom ||= hasUtf8Bom(bytes);
    const planned = { ...plannedOf(plan), ...serializeWork({ rows: plan.rows, layout }, mapping.phoneColumns.length) };
    await putObject(filesBucket(), plannedKey(draft), JSON.stringify({ mapping: clean(mapping), planned }), "application/json");
  }
  const validation = plan ? validationOf(plan) : null;
  const validated = await transitionDraft(
    draft.id,
    ["validating"],
    failure ? "validation_failed" : "awaiting_confirmation",
    // Every row was checked unless a row itself was refused (too many fields): then as far as it got.
    { failure: failure ? clean(failure) : null, validation, invalid_cells: invalid2.slice(0, INVALID_CELLS_KEPT), validated_rows: plan ? fields.length : rowsValidated },
    nowIso()
  );
  return validated ?? await getDraft(draft.id);
}
function validationOf(plan) {
  let cells = 0;
  for (const row of plan.rows) for (const n of row.numbers) if (n) cells++;
  return {
    total_rows: plan.totalRows,
    valid_row_count: plan.validRowCount,
    valid_number_count: plan.validNumberCount,
    invalid_count: plan.invalidCount,
    duplicate_count: cells - plan.validNumberCount,
    identity: plan.identity,
    price: { standard: priceOf(plan.validNumberCount, "standard"), max: priceOf(plan.validNumberCount, "max") }
  };
}
function invalidCells(plan, rows, header, mapping) {
  const idx = mapping.phoneColumns.map((c) => header.findIndex((h) => h.trim() === c));
  const out = [];
  plan.rows.forEach((row, r) => {
    row.numbers.forEach((n, c) => {
      if (n === null) out.push({ row: r + 2, column: mapping.phoneColumns[c], value: rows[r][idx[c]] ?? "", reason: "not a valid US/CA phone number" });
    });
  });
  return out;
}
function reportCsv(cells, failure) {
  const lines = [csvLine(["row", "column", "value", "reason"])];
  if (failure) lines.push(csvLine(["", "", "", typeof failure.detail === "string" ? failure.detail : String(failure.detail.message ?? JSON.stringify(failure.detail))]));
  for (const c of cells) lines.push(csvLine([String(c.row), c.column, c.value, c.reason]));
  return lines.join("\r\n") + "\r\n";
}
async function reportLink(principal, id) {
  const draft = await ownDraft(principal, id);
  if (draft.status !== "validation_failed" && draft.status !== "awaiting_confirmation") throw new Conflict("No validation report yet: map the columns first");
  const name = draft.filename.replace(/\.csv$/i, "") + "_validation.csv";
  return { url: await presignGet(filesBucket(), reportKey(draft), 3600, `attachment; filename="${name.replace(/[^\w.-]/g, "_")}"`) };
}
async function confirmWebUpload(ports2, principal, id, tier, skipMobileLookup) {
  const draft = await ownDraft(principal, id);
  if (!principal.organization.subscription_active) throw new Forbidden("An active subscription is required for this endpoint");
  if (!await transitionDraft(draft.id, ["awaiting_confirmation"], "confirming", {}, nowIso())) {
    throw new Conflict(`This upload is ${draft.status}; only an upload awaiting confirmation can be confirmed`);
  }
  const [csv, stored] = await Promise.all([getObject(filesBucket(), originalKey(draft)), getObject(filesBucket(), plannedKey(draft))]);
  if (!csv) throw new Error(`web upload ${draft.id}: original missing`);
  const saved = stored ? JSON.parse(stored.toString("utf8")) : null;
  const planned = saved && sameMapping(saved.mapping, draft.mapping) ? saved.planned : void 0;
  try {
    const upload = await createUpload(
      ports2,
      { organizationId: principal.organizationId, userId: principal.userId, apiKeyId: null },
      { csv, filename: draft.filename, mapping: draft.mapping, tier, skipMobileLookup, source: "web" },
      draft.id,
      planned
    );
    await transitionDraft(draft.id, ["confirming"], "confirmed", {}, nowIso());
    return upload;
  } catch (error) {
    if (isRefusal(error)) await transitionDraft(draft.id, ["confirming"], "awaiting_confirmation", {}, nowIso());
    throw error;
  }
}
var sameMapping = (a, b) => a.phoneColumns.join("\0") === b.phoneColumns.join("\0") && a.fullNameColumn === b.fullNameColumn && a.firstNameColumn === b.firstNameColumn && a.lastNameColumn === b.lastNameColumn;
var openDrafts = (principal) => listOpenDrafts(principal.organizationId);
function safeFilename(name) {
  const base3 = name.split(/[\\/]/).pop().trim().slice(0, 200);
  return base3 || "web_upload.csv";
}

// lambdas/console/handler.ts
var routes = [];
function route(method, path, handle2) {
  const names = [];
  const pattern = new RegExp(`^${path.replace(/\{(\w+)\}/g, (_, n) => (names.push(n), "([^/]+)"))}$`);
  routes.push({ method, pattern, names, handle: handle2 });
}
function json(schema, event) {
  let body;
  try {
    const raw = rawBodyOf(event);
    body = raw.length ? JSON.parse(raw.toString("utf8")) : {};
  } catch {
    throw new InvalidInput("The body is not valid JSON");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new InvalidInput(parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; "));
  return parsed.data;
}
var adminCall = async (call) => {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AdminError) throw new InvalidInput(error.message);
    throw error;
  }
};
route("GET", "/console/api/me", async (p) => ({
  user: { id: p.user.id, email: p.user.email },
  organization: { id: p.organization.id, name: p.organization.name, subscription_active: p.organization.subscription_active },
  role: p.role
}));
route("GET", "/console/api/keys", async (p) => {
  requireOwner(p);
  const members = new Map((await listMembers(p.organizationId)).map((m) => [m.user_id, m.email]));
  const keys2 = await listKeys(p.organizationId);
  return {
    data: keys2.sort((a, b) => b.created_at.localeCompare(a.created_at)).map((k) => ({ id: k.id, display_prefix: k.display_prefix, created_by_user_id: k.created_by_user_id, created_by: members.get(k.created_by_user_id) ?? null, created_at: k.created_at, expires_at: k.expires_at, revoked_at: k.revoked_at, last_used_at: k.last_used_at ?? null }))
  };
});
route("POST", "/console/api/keys", async (p, { event }) => {
  requireOwner(p);
  const body = json(z24.object({ expires_at: z24.string().datetime({ offset: true }).nullish() }), event);
  if (body.expires_at && Date.parse(body.expires_at) <= Date.now()) throw new InvalidInput("expires_at must be in the future");
  const minted = await adminCall(() => mintKey(p.organizationId, p.userId, body.expires_at ?? void 0));
  return { key: minted.key, id: minted.record.id, display_prefix: minted.record.display_prefix, created_at: minted.record.created_at, expires_at: minted.record.expires_at };
});
route("DELETE", "/console/api/keys/{id}", async (p, { params }) => {
  requireOwner(p);
  const key4 = await getApiKeyById(params.id);
  if (!key4 || key4.organization_id !== p.organizationId) throw new NotFound("API key not found");
  await adminCall(() => revokeKey(key4.id));
  return { id: key4.id, revoked: true };
});
route("GET", "/console/api/members", async (p) => {
  requireOwner(p);
  return { data: await listMembers(p.organizationId) };
});
route("DELETE", "/console/api/members/{userId}", async (p, { params }) => {
  requireOwner(p);
  if (params.userId === p.userId) throw new InvalidInput("You cannot remove yourself; another owner can");
  const result = await adminCall(() => removeMember(p.organizationId, params.userId));
  return { user_id: params.userId, revoked_keys: result.revokedKeys };
});
route("GET", "/console/api/webhooks", async (p) => {
  requireOwner(p);
  return { data: await listEndpointsOf(p.organizationId), event_types: SUBSCRIBABLE_EVENT_TYPES, default_events: DEFAULT_EVENT_TYPES };
});
var WebhookBody = z24.object({ url: z24.string().min(1).max(2048), description: z24.string().max(500).nullish(), events: z24.array(z24.string()).optional() });
route("POST", "/console/api/webhooks", async (p, { event, ports: ports2 }) => {
  requireOwner(p);
  return createEndpoint(ports2, p.organizationId, json(WebhookBody, event));
});
route("POST", "/console/api/webhooks/{id}", async (p, { params, event, ports: ports2 }) => {
  requireOwner(p);
  const body = json(z24.object({ url: z24.string().min(1).max(2048).optional(), description: z24.string().max(500).nullish(), events: z24.array(z24.string()).optional(), is_active: z24.boolean().optional() }), event);
  return updateEndpointWithPing(ports2, p.organizationId, params.id, body);
});
route("DELETE", "/console/api/webhooks/{id}", async (p, { params }) => {
  requireOwner(p);
  await deleteEndpoint(p.organizationId, params.id);
  return { id: params.id, deleted: true };
});
route("GET", "/console/api/webhooks/{id}/deliveries", async (p, { params, query }) => {
  requireOwner(p);
  return listDeliveries(p.organizationId, params.id, { limit: 50, cursor: query.cursor || void 0 });
});
route("GET", "/console/api/spam", async (p) => listNumbers(p.organization, 100, 0));
route(
  "POST",
  "/console/api/spam",
  async (p, { event, ports: ports2 }) => addNumber(ports2, p.organization, json(z24.object({ phone_number: z24.string().min(1).max(40), verification_method: z24.enum(["sms", "call"]).default("sms") }), event))
);
route("DELETE", "/console/api/spam/{id}", async (p, { params }) => deleteNumber(p.organization, params.id));
route("POST", "/console/api/spam/{id}/verify", async (p, { params, event, ports: ports2 }) => verifyNumber(ports2, p.organization, params.id, json(z24.object({ code: z24.string().min(1).max(20) }), event).code));
route("POST", "/console/api/spam/{id}/resend", async (p, { params, event, ports: ports2 }) => resendCode(ports2, p.organization, params.id, json(z24.object({ method: z24.enum(["sms", "call"]) }), event).method));
route("GET", "/console/api/spam/{id}/history", async (p, { params }) => history(p.organization, params.id));
route("GET", "/console/api/spam/{id}/screenshot", async (p, { params, query }) => {
  if (query.carrier !== void 0 && !isCarrier(query.carrier)) throw new InvalidInput("carrier must be at&t, t-mobile or verizon");
  const image = await screenshot(p.organization, params.id, query.carrier);
  return { content_type: image.contentType, data_url: `data:${image.contentType};base64,${image.bytes.toString("base64")}` };
});
route("GET", "/console/api/credits", async (p) => ({ balance: await getBalance(p.organizationId), ledger: await listLedger(p.organizationId, 100) }));
route("GET", "/console/api/uploads", async (p, { query }) => {
  const page2 = await listUploads(p.organizationId, 50, query.cursor || void 0);
  return { drafts: await openDrafts(p), data: page2.data.map(toPublicUpload), next_cursor: page2.nextCursor };
});
route("POST", "/console/api/uploads", async (p, { event, query }) => {
  const draft = await startWebUpload(p, query.filename ?? "web_upload.csv", rawBodyOf(event));
  return { draft };
});
route("POST", "/console/api/uploads/staging", async (p) => stageUpload(p.organizationId));
route("POST", "/console/api/uploads/staged", async (p, { event }) => {
  const body = json(z24.object({ staged_upload_id: z24.uuid(), filename: z24.string().min(1).max(255).optional() }), event);
  return { draft: await startWebUpload(p, body.filename ?? "web_upload.csv", await readStaged(p.organizationId, body.staged_upload_id)) };
});
route("GET", "/console/api/uploads/{id}", async (p, { params }) => {
  const upload = await getUpload(params.id);
  if (upload && upload.organization_id === p.organizationId && upload.status !== "charging") return { upload: toPublicUpload(upload) };
  return { draft: await ownDraft(p, params.id) };
});
var Mapping = z24.object({
  phone_columns: z24.array(z24.string().min(1)).min(1).max(10),
  full_name_column: z24.string().min(1).nullish(),
  first_name_column: z24.string().min(1).nullish(),
  last_name_column: z24.string().min(1).nullish()
});
route("POST", "/console/api/uploads/{id}/mapping", async (p, { params, event }) => {
  const m = json(Mapping, event);
  const draft = await mapWebUpload(p, params.id, {
    phoneColumns: m.phone_columns,
    fullNameColumn: m.full_name_column ?? void 0,
    firstNameColumn: m.first_name_column ?? void 0,
    lastNameColumn: m.last_name_column ?? void 0
  });
  return { draft };
});
route("POST", "/console/api/uploads/{id}/confirm", async (p, { params, event, ports: ports2 }) => {
  const body = json(z24.object({ validation_tier: z24.enum(["standard", "max"]), skip_mobile_lookup: z24.boolean().default(false) }), event);
  return { upload: toPublicUpload(await confirmWebUpload(ports2, p, params.id, body.validation_tier, body.skip_mobile_lookup)) };
});
route("GET", "/console/api/uploads/{id}/report", async (p, { params }) => reportLink(p, params.id));
route("GET", "/console/api/uploads/{id}/download/{kind}", async (p, { params, query }) => {
  const upload = await ownUpload2(p, params.id);
  if (params.kind === "original") return originalLink(upload);
  if (params.kind === "processed") return processedLink(upload, query);
  throw new NotFound("Unknown download");
});
async function ownUpload2(p, id) {
  const upload = await getUpload(id);
  if (!upload || upload.organization_id !== p.organizationId || upload.status === "charging") throw new NotFound("Upload not found");
  return upload;
}
var HEADERS = { "content-type": "application/json", "cache-control": "no-store" };
var consoleApi = (ports2) => async (event) => {
  try {
    const method = event.requestContext.http.method.toUpperCase();
    const path = event.rawPath;
    const candidates = routes.map((r) => ({ r, m: r.pattern.exec(path) })).filter((x) => x.m);
    if (candidates.length === 0) throw new NotFound("Not found");
    const hit = candidates.find((x) => x.r.method === method);
    if (!hit) throw new HttpError(405, "Method not allowed", { allow: candidates.map((x) => x.r.method).join(", ") });
    const params = Object.fromEntries(hit.r.names.map((n, i) => [n, decodeURIComponent(hit.m[i + 1])]));
    const principal = await consolePrincipal(event);
    const body = await hit.r.handle(principal, { params, query: event.queryStringParameters ?? {}, event, ports: ports2 });
    return { statusCode: 200, headers: HEADERS, body: JSON.stringify(body) };
  } catch (error) {
    const known = toHttpError(error);
    if (known) return { statusCode: known.status, headers: { ...HEADERS, ...known.headers }, body: JSON.stringify({ detail: known.detail }) };
    console.error("console api: unhandled", error);
    return { statusCode: 500, headers: HEADERS, body: JSON.stringify({ detail: `Internal server error (request ${event.requestContext.requestId})` }) };
  }
};
var handler7 = consoleApi(awsPorts());

// local/console-oidc.ts
import { randomBytes as randomBytes7 } from "node:crypto";
import { timingSafeEqual as timingSafeEqual3 } from "node:crypto";
import Provider, { errors } from "oidc-provider";

// local/console-oidc-store.ts
import { chmodSync, mkdirSync as mkdirSync5, readFileSync as readFileSync4, renameSync as renameSync2, rmSync as rmSync3, writeFileSync as writeFileSync3 } from "node:fs";
import { dirname as dirname2 } from "node:path";
var SessionFile = class {
  constructor(path) {
    this.path = path;
  }
  path;
  load() {
    const stores = /* @__PURE__ */ new Map();
    let saved;
    try {
      saved = JSON.parse(readFileSync4(this.path, "utf8"));
    } catch {
      return stores;
    }
    const now2 = Date.now();
    for (const [name, items] of Object.entries(saved ?? {})) {
      const live = /* @__PURE__ */ new Map();
      for (const [id, entry] of Object.entries(items ?? {})) if (entry && typeof entry.expiresAt === "number" && entry.expiresAt > now2 && entry.payload) live.set(id, entry);
      stores.set(name, live);
    }
    return stores;
  }
  save(stores) {
    const data = Object.fromEntries([...stores].map(([name, items]) => [name, Object.fromEntries(items)]));
    mkdirSync5(dirname2(this.path), { recursive: true });
    const temp = `${this.path}.tmp`;
    try {
      writeFileSync3(temp, JSON.stringify(data), { mode: 384 });
      chmodSync(temp, 384);
      renameSync2(temp, this.path);
    } catch (error) {
      rmSync3(temp, { force: true });
      throw error;
    }
  }
};
function oidcAdapter(file) {
  const sessions = file ? new SessionFile(file) : null;
  const stores = sessions?.load() ?? /* @__PURE__ */ new Map();
  const persist = () => sessions?.save(stores);
  return class StoredAdapter {
    constructor(name) {
      this.name = name;
      this.items = stores.get(name) ?? /* @__PURE__ */ new Map();
      stores.set(name, this.items);
    }
    name;
    items;
    async upsert(id, payload, expiresIn) {
      this.sweep();
      this.items.set(id, { payload, expiresAt: Date.now() + expiresIn * 1e3 });
      persist();
    }
    async find(id) {
      const item = this.items.get(id);
      if (!item) return void 0;
      if (item.expiresAt <= Date.now()) {
        this.items.delete(id);
        return void 0;
      }
      return item.payload;
    }
    async findByUserCode(userCode) {
      for (const [id, item] of this.items) if (item.payload.userCode === userCode) return this.find(id);
      return void 0;
    }
    async findByUid(uid) {
      for (const [id, item] of this.items) if (item.payload.uid === uid) return this.find(id);
      return void 0;
    }
    async consume(id) {
      const item = this.items.get(id);
      if (!item) return;
      item.payload.consumed = Math.floor(Date.now() / 1e3);
      persist();
    }
    async destroy(id) {
      if (this.items.delete(id)) persist();
    }
    async revokeByGrantId(grantId) {
      let changed = false;
      for (const [id, item] of this.items) if (item.payload.grantId === grantId) changed = this.items.delete(id) || changed;
      if (changed) persist();
    }
    sweep() {
      const now2 = Date.now();
      for (const [id, item] of this.items) if (item.expiresAt <= now2) this.items.delete(id);
    }
  };
}

// local/console-oidc.ts
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify } from "jose";
var CONSOLE_CLIENT_ID = "console";
var CONSOLE_AUDIENCE = "urn:phone-validation:console";
var CONSOLE_SCOPE = "openid email console";
async function newOidcKeys() {
  const { privateKey: privateKey2 } = await generateKeyPair("RS256", { extractable: true });
  return { signing: { ...await exportJWK(privateKey2), alg: "RS256", use: "sig", kid: randomBytes7(8).toString("hex") }, cookie: randomBytes7(32).toString("hex") };
}
function startConsoleOidc(options) {
  const issuer = `${options.origin}/oidc`;
  const byId = new Map(options.logins.map((l) => [l.userId, l]));
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = options.keys.signing;
  const jwks = createLocalJWKSet({ keys: [publicJwk] });
  const configuration = {
    clients: [
      {
        client_id: CONSOLE_CLIENT_ID,
        token_endpoint_auth_method: "none",
        application_type: "web",
        redirect_uris: [`${options.origin}/callback`],
        post_logout_redirect_uris: [`${options.origin}/`],
        grant_types: ["authorization_code"],
        response_types: ["code"]
      }
    ],
    adapter: oidcAdapter(options.sessionsFile ?? null),
    // The console is served from the provider's own origin; no other origin may call it from a browser.
    clientBasedCORS: (_ctx, origin) => origin === options.origin,
    jwks: { keys: [options.keys.signing] },
    cookies: { keys: [options.keys.cookie] },
    claims: { openid: ["sub"], email: ["email"] },
    scopes: ["openid", "email"],
    findAccount: async (_ctx, id) => {
      const login = byId.get(id);
      return login ? { accountId: id, claims: async () => ({ sub: id, email: login.email }) } : void 0;
    },
    interactions: { url: (_ctx, interaction2) => `/oidc/interaction/${interaction2.uid}` },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => CONSOLE_AUDIENCE,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (resource !== CONSOLE_AUDIENCE) throw new errors.InvalidTarget();
          return { scope: "console", audience: CONSOLE_AUDIENCE, accessTokenTTL: 3600, accessTokenFormat: "jwt", jwt: { sign: { alg: "RS256" } } };
        }
      }
    },
    ttl: { AccessToken: 3600, IdToken: 3600, AuthorizationCode: 60, Interaction: 600, Session: 8 * 3600, Grant: 8 * 3600 },
    renderError: async (ctx, out) => {
      ctx.type = "html";
      ctx.body = page("Sign-in error", `<h1>Sign-in error</h1><p>${escape(String(out.error_description ?? out.error))}</p><p><a href="/">Back to the console</a></p>`);
    }
  };
  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();
  async function interaction(req, res, url) {
    const details = await provider.interactionDetails(req, res);
    const uid = details.uid;
    if (req.method === "POST" && url.pathname.endsWith("/login")) {
      const form = new URLSearchParams((await readSmall(req)).toString("utf8"));
      const email = (form.get("email") ?? "").trim().toLowerCase();
      const login = options.logins.find((l) => l.email.toLowerCase() === email);
      if (!login || !sameSecret(form.get("password") ?? "", login.password)) {
        return html(res, 401, loginPage(uid, email, "Wrong email or password."));
      }
      await provider.interactionFinished(req, res, { login: { accountId: login.userId } }, { mergeWithLastSubmission: false });
      return;
    }
    if (details.prompt.name === "login") return html(res, 200, loginPage(uid, "", null));
    const { accountId } = details.session ?? {};
    if (!accountId) return html(res, 400, page("Sign-in error", '<p>Session expired. <a href="/">Start again</a></p>'));
    const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    const missing2 = details.prompt.details;
    if (missing2.missingOIDCScope) grant.addOIDCScope(missing2.missingOIDCScope.join(" "));
    for (const [resource, scopes] of Object.entries(missing2.missingResourceScopes ?? {})) grant.addResourceScope(resource, scopes.join(" "));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }
  return {
    issuer,
    async handle(req, res, url) {
      if (url.pathname !== "/oidc" && !url.pathname.startsWith("/oidc/")) return false;
      if (url.pathname.startsWith("/oidc/interaction/")) {
        try {
          await interaction(req, res, url);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          html(res, 400, page("Sign-in error", `<h1>Sign-in error</h1><p>${escape(message)}</p><p><a href="/">Start again</a></p>`));
        }
        return true;
      }
      req.originalUrl = req.url;
      req.url = req.url.slice("/oidc".length) || "/";
      await new Promise((resolve3) => {
        res.once("finish", resolve3);
        res.once("close", resolve3);
        void callback(req, res);
      });
      return true;
    },
    async verifyAccessToken(token) {
      const { payload } = await jwtVerify(token, jwks, { issuer, audience: CONSOLE_AUDIENCE, algorithms: ["RS256"] });
      return payload;
    }
  };
}
function sameSecret(a, b) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual3(x, y);
}
async function readSmall(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > 16384) throw new Error("form too large");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
var escape = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
function page(title, body, nonce = randomBytes7(16).toString("base64")) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title>
<style nonce="${nonce}">body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f6fa;color:#1b2330}main{max-width:24rem;margin:10vh auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002}label{display:block;margin-top:1rem;font-weight:600}input{width:100%;box-sizing:border-box;padding:.6rem;font:inherit;border:1px solid #8a94a6;border-radius:4px}button{margin-top:1.5rem;width:100%;padding:.7rem;font:inherit;font-weight:600;background:#1d4ed8;color:#fff;border:0;border-radius:4px;cursor:pointer}button:focus-visible,input:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}.error{color:#b91c1c;font-weight:600}</style></head>
<body data-nonce="${nonce}"><main>${body}</main></body></html>`;
}
function loginPage(uid, email, error) {
  return page(
    "Sign in",
    `<h1>Sign in</h1><p>Phone validation console (local identity provider)</p>
${error ? `<p class="error" role="alert">${escape(error)}</p>` : ""}
<form method="post" action="/oidc/interaction/${escape(uid)}/login">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${escape(email)}" autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>`
  );
}
function html(res, status, body) {
  const nonce = /data-nonce="([^"]+)"/.exec(body)?.[1] ?? "";
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-security-policy": `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer"
  });
  res.end(body);
}

// local/console-static.ts
import { readFile, stat as stat2 } from "node:fs/promises";
import { extname, join as join4, normalize, resolve as resolve2, sep } from "node:path";
var CONSOLE_DIST = resolve2(import.meta.dirname, "..", "web", "dist");
var TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
  ".txt": "text/plain; charset=utf-8"
};
function consoleCsp(connect = []) {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${connect.length ? ` ${connect.join(" ")}` : ""}`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "manifest-src 'self'"
  ].join("; ");
}
var SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=()"
};
async function serveConsoleFile(req, res, url, extra) {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const dist = extra.dist ?? CONSOLE_DIST;
  const headers2 = { ...SECURITY_HEADERS, "content-security-policy": consoleCsp(extra.connect) };
  if (url.pathname === "/console/config.json") {
    res.writeHead(200, { ...headers2, "content-type": "application/json", "cache-control": "no-store" });
    res.end(JSON.stringify(extra.config));
    return true;
  }
  let path;
  try {
    path = normalize(decodeURIComponent(url.pathname));
  } catch {
    return false;
  }
  let file = join4(dist, path);
  if (!file.startsWith(dist + sep) && file !== dist) return false;
  const isAppRoute = !extname(path);
  if (isAppRoute) file = join4(dist, "index.html");
  let body;
  try {
    if (!(await stat2(file)).isFile()) return false;
    body = await readFile(file);
  } catch {
    if (!isAppRoute) return false;
    res.writeHead(503, { ...headers2, "content-type": "text/plain; charset=utf-8" });
    res.end("The console is not built: run `npm run build:web` (npm start does it), then reload.\n");
    return true;
  }
  const immutable = path.startsWith("/assets/");
  res.writeHead(200, {
    ...headers2,
    "content-type": TYPES[extname(file)] ?? "application/octet-stream",
    "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
    "content-length": body.length
  });
  res.end(req.method === "HEAD" ? void 0 : body);
  return true;
}

// local/console-server.ts
import { PutBucketCorsCommand } from "@aws-sdk/client-s3";
var unauthorized = (detail) => ({
  statusCode: 401,
  headers: { "content-type": "application/json", "www-authenticate": "Bearer", "cache-control": "no-store" },
  body: JSON.stringify({ detail })
});
function createConsoleLayer(options) {
  const consoleApi2 = consoleApi(options.ports);
  let oidc = null;
  let config2 = null;
  let storeOrigin = null;
  let corsReady = Promise.resolve();
  async function api(req, res, url) {
    const method = (req.method ?? "GET").toUpperCase();
    const body = await readBody2(req, options.maxBodyBytes);
    if (!body) return send(res, { statusCode: 413, headers: { "content-type": "application/json" }, body: JSON.stringify({ detail: `Request body exceeds ${options.maxBodyBytes} bytes` }) });
    const authorization = req.headers.authorization ?? "";
    const token = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
    if (!token) return send(res, unauthorized("Sign in to use the console"));
    if (token.startsWith("svc_live_")) return send(res, unauthorized("API keys cannot be used on console routes; sign in to the console"));
    let claims;
    try {
      claims = await oidc.verifyAccessToken(token);
    } catch {
      return send(res, unauthorized("Your session is not valid or has expired; sign in again"));
    }
    const event = toEvent(req, method, url, body, `${method} ${url.pathname}`, void 0);
    event.requestContext.authorizer = {
      jwt: { claims, scopes: typeof claims.scope === "string" ? claims.scope.split(" ") : [] }
    };
    send(res, await withLogContext(() => consoleApi2(event)));
  }
  return {
    prelude: async (req, res, url) => {
      if (!oidc) return false;
      const path = url.pathname;
      if (path.startsWith("/api/") || path === "/api" || path === "/openapi.json") return false;
      if (await oidc.handle(req, res, url)) return true;
      if (path.startsWith("/console/api/")) {
        await api(req, res, url);
        return true;
      }
      await corsReady;
      return serveConsoleFile(req, res, url, { config: config2, connect: storeOrigin ? [storeOrigin] : [] });
    },
    attach(origin, accounts) {
      oidc = startConsoleOidc({ origin, logins: [accounts.owner, accounts.member], keys: accounts.keys, sessionsFile: accounts.sessionsFile });
      config2 = { authority: oidc.issuer, client_id: CONSOLE_CLIENT_ID, scope: CONSOLE_SCOPE };
      corsReady = allowConsoleUploads(origin).then(
        (o) => void (storeOrigin = o),
        (error) => console.warn(`console: large uploads will not reach the file store from the page: ${error.message}`)
      );
      return oidc;
    }
  };
}
async function allowConsoleUploads(consoleOrigin) {
  await s3().send(
    new PutBucketCorsCommand({
      Bucket: filesBucket(),
      CORSConfiguration: { CORSRules: [{ AllowedOrigins: [consoleOrigin], AllowedMethods: ["POST", "PUT"], AllowedHeaders: ["content-type"], ExposeHeaders: ["ETag"], MaxAgeSeconds: 3600 }] }
    })
  );
  return new URL(await presignGet(filesBucket(), "origin-probe", 60)).origin;
}

// local/console-seed.ts
import { randomBytes as randomBytes8 } from "node:crypto";
import { mkdirSync as mkdirSync6, readFileSync as readFileSync5, renameSync as renameSync3, writeFileSync as writeFileSync4 } from "node:fs";
import { join as join5 } from "node:path";
import { GetCommand as GetCommand15, PutCommand as PutCommand6 } from "@aws-sdk/lib-dynamodb";
var SEED_KEY2 = { pk: "LOCAL#CONSOLE", sk: "META" };
async function ensureConsoleAccounts(demo, dataDir2) {
  const existing = await db().send(new GetCommand15({ TableName: tableName(), Key: SEED_KEY2 }));
  let memberId = existing.Item?.member_user_id;
  if (!memberId) {
    const member = await createUser("member@example.com");
    await addMember(demo.organizationId, member.id, "member");
    await db().send(new PutCommand6({ TableName: tableName(), Item: { ...SEED_KEY2, ...stamp("LocalConsoleSeed"), member_user_id: member.id, created_at: nowIso() } }));
    memberId = member.id;
  }
  const secrets = await loadSecrets(dataDir2);
  return {
    owner: { userId: demo.userId, email: "demo@example.com", password: secrets.passwords.owner },
    member: { userId: memberId, email: "member@example.com", password: secrets.passwords.member },
    keys: secrets.keys,
    sessionsFile: dataDir2 ? join5(dataDir2, "console-oidc-sessions.json") : null
  };
}
var password = () => randomBytes8(9).toString("base64url");
async function loadSecrets(dataDir2) {
  const file = dataDir2 ? join5(dataDir2, "console-oidc.json") : null;
  if (file) {
    try {
      const saved = JSON.parse(readFileSync5(file, "utf8"));
      if (saved.keys?.signing && saved.keys.cookie && saved.passwords?.owner && saved.passwords.member) return saved;
    } catch {
    }
  }
  const secrets = { keys: await newOidcKeys(), passwords: { owner: password(), member: password() } };
  if (file) {
    mkdirSync6(dataDir2, { recursive: true });
    writeFileSync4(`${file}.tmp`, JSON.stringify(secrets), { mode: 384 });
    renameSync3(`${file}.tmp`, file);
  }
  return secrets;
}

// local/workflow.ts
import { readFileSync as readFileSync6 } from "node:fs";
import { fileURLToPath } from "node:url";

// lambdas/uploads/pipeline/classify-chunk.ts
async function classifyChunk(input) {
  const upload = await getUpload(input.upload_id);
  if (!upload) throw new Error(`upload ${input.upload_id} not found`);
  const bucket2 = filesBucket();
  const resultKey = keys.chunkResult(upload, input.chunk);
  const existing = await getObject(bucket2, resultKey);
  if (existing) return { chunk: input.chunk, count: JSON.parse(existing.toString("utf8")).length };
  const bytes = await getObject(bucket2, keys.chunk(upload, input.chunk));
  if (!bytes) throw new Error(`upload ${upload.id}: chunk ${input.chunk} missing`);
  const items = JSON.parse(bytes.toString("utf8"));
  const provider = await createProviderFromEnv();
  const results = await classifyBatch(provider, items.map((i) => ({ e164: i.e164, name: i.name })), {
    tier: upload.validation_tier,
    skipMobileLookup: upload.skip_mobile_lookup
  });
  const answers = results.map((r, i) => ({ key: items[i].key, answerIntent: r.answerIntent, identity: r.identity, simulated: r.simulated, ...r.lookupError ? { lookupError: r.lookupError } : {} }));
  await putObject(bucket2, resultKey, JSON.stringify(answers), "application/json");
  return { chunk: input.chunk, count: answers.length };
}

// lambdas/contacts/pool-step.ts
async function notifyPool(ports2, input) {
  const upload = await getUpload(input.upload_id);
  if (!upload) throw new Error(`upload ${input.upload_id} not found`);
  if (upload.source !== "api_pool") return { status: "not_a_pool" };
  if (upload.status !== "completed" && upload.status !== "failed") {
    logger.warn("pool upload not ended; its contacts are settled when it is", { upload_id: upload.id, status: upload.status });
    return { status: upload.status };
  }
  await settlePoolUpload(ports2, upload);
  return { status: upload.status };
}

// local/workflow-runner.ts
import { StateMachine } from "aws-local-stepfunctions";
function taskStates(definition) {
  const out = {};
  for (const [name, state] of Object.entries(definition.States)) {
    if (state.Type === "Task") out[name] = state;
    const nested = [state.ItemProcessor, state.Iterator, ...state.Branches ?? []].filter((s) => s !== void 0);
    for (const inner of nested) Object.assign(out, taskStates(inner));
  }
  return out;
}
function assertDeclaredTimeouts(definition) {
  const missing2 = Object.entries(taskStates(definition)).filter(([, s]) => !(Number.isInteger(s.TimeoutSeconds) && s.TimeoutSeconds >= 1) || s.TimeoutSecondsPath !== void 0).map(([name]) => name);
  if (missing2.length) throw new Error(`Every Task state must declare TimeoutSeconds (an integer >= 1): ${missing2.join(", ")}`);
}
var AttemptGuard = class {
  constructor(exclusive, onRequested) {
    this.exclusive = exclusive;
    this.onRequested = onRequested;
  }
  exclusive;
  onRequested;
  inFlight = /* @__PURE__ */ new Map();
  wrap(state, handler8) {
    return async (input) => {
      const key4 = `${state}\0${JSON.stringify(input)}`;
      const before = this.exclusive.has(state) ? [...this.inFlight.values()] : [this.inFlight.get(key4)].filter((p) => p !== void 0);
      this.onRequested?.(state, before.length > 0);
      const attempt = Promise.allSettled(before).then(() => handler8(input));
      const settled = attempt.then(
        () => void 0,
        () => void 0
      );
      this.inFlight.set(key4, settled);
      void settled.then(() => {
        if (this.inFlight.get(key4) === settled) this.inFlight.delete(key4);
      });
      return attempt;
    };
  }
  /** Resolves once no attempt is running, late ones included. */
  async drained() {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight.values()]);
  }
};
var WorkflowRunner = class {
  constructor(options) {
    this.options = options;
    assertDeclaredTimeouts(options.definition);
    if (!(options.concurrency >= 1)) throw new Error(`Workflow concurrency must be at least 1; got ${options.concurrency}`);
    this.machine = new StateMachine(options.definition, { validationOptions: { checkPaths: true, checkArn: true } });
    this.lingerMs = options.lingerMs ?? Math.max(...Object.values(taskStates(options.definition)).map((t) => t.TimeoutSeconds)) * 1e3;
  }
  options;
  queue = [];
  /** Ids with an execution or late attempts still running. */
  active = /* @__PURE__ */ new Map();
  slotsInUse = 0;
  idle = /* @__PURE__ */ new Set();
  stopped = false;
  machine;
  lingerMs;
  /** Queues an execution for `id` unless one is queued or running. */
  start(id, input) {
    if (this.stopped || this.active.has(id) || this.queue.some((q) => q.id === id)) return;
    this.queue.push({ id, input });
    this.pump();
  }
  get pending() {
    return { queued: this.queue.length, running: this.active.size };
  }
  /** Resolves when nothing is queued or running, late attempts included. */
  settle() {
    if (!this.queue.length && !this.active.size) return Promise.resolve();
    return new Promise((resolve3) => this.idle.add(resolve3));
  }
  /** Drops what has not started (it stays for the next start's recovery) and waits for the rest. */
  async stop() {
    this.stopped = true;
    this.queue.length = 0;
    await this.settle();
  }
  pump() {
    while (this.slotsInUse < this.options.concurrency && this.queue.length) {
      const { id, input } = this.queue.shift();
      this.slotsInUse++;
      let slotHeld = true;
      const freeSlot = () => {
        if (!slotHeld) return;
        slotHeld = false;
        this.slotsInUse--;
        this.pump();
      };
      const run = this.execute(id, input, freeSlot).finally(() => {
        this.active.delete(id);
        freeSlot();
        this.pump();
      });
      this.active.set(id, run);
    }
    if (!this.queue.length && !this.active.size) {
      for (const resolve3 of this.idle) resolve3();
      this.idle.clear();
    }
  }
  async execute(id, input, freeSlot) {
    const onRequested = this.options.onAttemptRequested;
    const guard = new AttemptGuard(new Set(this.options.exclusiveStates ?? []), onRequested && ((state, waiting) => onRequested(id, state, waiting)));
    const handlers = Object.fromEntries(Object.entries(this.options.handlers).map(([state, handler8]) => [state, guard.wrap(state, handler8)]));
    const interval = this.options.retryIntervalMs;
    const retryIntervalOverrides = interval === void 0 ? void 0 : Object.fromEntries(Object.keys(taskStates(this.options.definition)).map((s) => [s, interval]));
    try {
      await this.machine.run(input, { overrides: { taskResourceLocalHandlers: handlers, retryIntervalOverrides } }).result;
    } catch (error) {
      this.options.onError?.(id, error);
    }
    const drained = guard.drained();
    let timer;
    const lingering = await Promise.race([drained.then(() => false), new Promise((resolve3) => timer = setTimeout(() => resolve3(true), this.lingerMs))]);
    clearTimeout(timer);
    if (lingering) {
      this.options.onLingering?.(id);
      freeSlot();
      await drained;
    }
  }
};

// local/workflow.ts
var ASL = fileURLToPath(new URL("../statemachines/upload-processing.asl.json", import.meta.url));
var localWorkflowConcurrency = () => {
  const n = Number(process.env.LOCAL_WORKFLOW_CONCURRENCY ?? 2);
  if (!Number.isInteger(n) || n < 1) throw new Error(`LOCAL_WORKFLOW_CONCURRENCY must be a whole number >= 1; got '${process.env.LOCAL_WORKFLOW_CONCURRENCY}'`);
  return n;
};
function uploadWorkflowDefinition() {
  const text = readFileSync6(ASL, "utf8").replace(/\$\{(\w+)FunctionArn\}/g, (_, name) => `arn:aws:lambda:us-east-1:000000000000:function:local-${name}`);
  return JSON.parse(text);
}
var step = (state, handler8) => (input) => withLogContext(() => {
  logger.appendKeys({ upload_id: input.upload_id, state });
  return handler8(input);
});
var handlersFor = (ports2) => ({
  Prepare: step("Prepare", prepare),
  ClassifyChunk: step("ClassifyChunk", classifyChunk),
  Finalize: step("Finalize", (input) => finalize(ports2, input)),
  MarkFailed: step("MarkFailed", (input) => fail(ports2, input)),
  NotifyPool: step("NotifyPool", (input) => notifyPool(ports2, input))
});
function createUploadWorkflowRunner(ports2, options = {}) {
  return new WorkflowRunner({
    definition: uploadWorkflowDefinition(),
    handlers: handlersFor(ports2),
    concurrency: options.concurrency ?? localWorkflowConcurrency(),
    // Marking an upload failed waits until no other step of it is still running.
    exclusiveStates: ["MarkFailed"],
    retryIntervalMs: options.retryIntervalMs ?? 200,
    onError: (uploadId, error) => logger.error("local workflow failed", { upload_id: uploadId, error }),
    onAttemptRequested: (uploadId, state, waiting) => {
      if (waiting) logger.warn("local workflow: a retry waits for the earlier attempt of the step to finish", { upload_id: uploadId, state });
    },
    onLingering: (uploadId) => logger.error("local workflow: a timed-out step of this upload is still running after its execution ended; its slot is handed on, the upload stays taken until the step ends", { upload_id: uploadId })
  });
}

// local/local-secret-sealer.ts
import { createCipheriv as createCipheriv2, createDecipheriv as createDecipheriv2, randomBytes as randomBytes9 } from "node:crypto";
var ALG = "local-aes-256-gcm";
var IV_BYTES2 = 12;
var TAG_BYTES2 = 16;
var SECRETS_KEY_FILE = "secrets-key";
function localSecretsKey(dataDir2) {
  if (!dataDir2) return randomBytes9(32);
  const hex = keyFileIn(dataDir2, SECRETS_KEY_FILE);
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error(`${SECRETS_KEY_FILE} in ${dataDir2} must hold 64 hex characters (a 256-bit key)`);
  return Buffer.from(hex, "hex");
}
function localSecretSealer(key4) {
  if (key4.length !== 32) throw new Error("the local secrets key must be 32 bytes");
  return {
    async seal(plaintext, context) {
      const iv = randomBytes9(IV_BYTES2);
      const cipher = createCipheriv2("aes-256-gcm", key4, iv);
      cipher.setAAD(canonicalContext(context));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return { v: 1, alg: ALG, ct: Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64") };
    },
    async open(sealed, context) {
      if (sealed.alg !== ALG) throw new SecretUnopenable(`a secret sealed with ${sealed.alg} cannot be opened with the local key`);
      const bytes = Buffer.from(sealed.ct, "base64");
      if (bytes.length < IV_BYTES2 + TAG_BYTES2) throw new SecretUnopenable("the sealed secret is too short");
      const decipher = createDecipheriv2("aes-256-gcm", key4, bytes.subarray(0, IV_BYTES2));
      decipher.setAAD(canonicalContext(context));
      decipher.setAuthTag(bytes.subarray(IV_BYTES2, IV_BYTES2 + TAG_BYTES2));
      try {
        return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES2 + TAG_BYTES2)), decipher.final()]).toString("utf8");
      } catch {
        throw new SecretUnopenable("the sealed secret does not open with this key under this context (altered, or moved to another item)");
      }
    }
  };
}

// local/composition.ts
function createLocalRoot(overrides = {}, options = { dataDir: null }) {
  const cfg = config();
  const ports2 = {};
  const runner = createUploadWorkflowRunner(ports2);
  const queue = createLocalDeliveryQueue(ports2);
  ports2.net = overrides.net ?? systemNet();
  ports2.workflow = overrides.workflow ?? (async (uploadId) => runner.start(uploadId, { upload_id: uploadId }));
  ports2.deliveryQueue = "deliveryQueue" in overrides ? overrides.deliveryQueue ?? null : queue;
  ports2.settlePool = overrides.settlePool ?? ((upload) => settlePoolUpload(ports2, upload));
  const secrets = overrides.sealer && overrides.opener ? null : localSecretSealer(localSecretsKey(options.dataDir));
  ports2.sealer = overrides.sealer ?? secrets;
  ports2.opener = overrides.opener ?? secrets;
  let telephony = overrides.telephony ?? null;
  let carrierTests = overrides.carrierTests ?? null;
  Object.defineProperties(ports2, {
    telephony: { enumerable: true, get: () => telephony ??= configuredTelephony(cfg) },
    carrierTests: { enumerable: true, get: () => carrierTests ??= configuredCarrierTests(cfg) }
  });
  return {
    ports: ports2,
    settleWorkflows: () => runner.settle(),
    stop: async () => {
      queue.stop();
      await runner.stop();
    }
  };
}

// local/runtime.ts
async function startRuntime(options) {
  const external = process.env.AWS_ENDPOINT_URL;
  let dynamo = null;
  let s32 = null;
  let api = null;
  let root = null;
  const secret = external ? void 0 : localStoreSecret(options.dataDir);
  try {
    if (!external) {
      dynamo = await startEmbeddedDynamo(options.dataDir ? join6(options.dataDir, "dynamodb") : null);
      const s3Dir = options.dataDir ? join6(options.dataDir, "s3") : join6(await tempDir(), "s3");
      s32 = await startEmbeddedS3(s3Dir, { secret, host: options.host, port: filesPort(options.port) });
    }
    const endpoints = { dynamo: external ?? dynamo.endpoint, s3: external ?? s32.endpoint };
    applyLocalEnvironment(endpoints, secret, s32 ? filesPublicUrl(s32) : void 0);
    if (options.dataDir) process.env.CURSOR_SECRET ??= localCursorSecret(options.dataDir);
    resetCursorKey();
    reloadConfig();
    resetDb();
    resetS3();
    await ensureTable(endpoints.dynamo, process.env.TABLE_NAME ?? LOCAL_RESOURCES.table);
    await ensureBuckets(endpoints.s3, [process.env.FILES_BUCKET, process.env.SCREENSHOTS_BUCKET]);
    root = createLocalRoot(options.ports, { dataDir: options.dataDir });
    const ports2 = root.ports;
    const demo = options.seedDemo ? await ensureDemoAccount() : null;
    const consoleLayer = createConsoleLayer({ maxBodyBytes: options.maxBodyBytes, ports: ports2 });
    api = await startLocalApi({
      prelude: consoleLayer.prelude,
      routes: ROUTES,
      functions: apiFunctions(ports2),
      port: options.port,
      host: options.host,
      maxBodyBytes: options.maxBodyBytes,
      maxPayloadBytes: options.maxPayloadBytes,
      requestTimeoutMs: numberFromEnv("LOCAL_REQUEST_TIMEOUT_MS"),
      headersTimeoutMs: numberFromEnv("LOCAL_HEADERS_TIMEOUT_MS"),
      maxInFlightBodyBytes: numberFromEnv("LOCAL_MAX_INFLIGHT_BODY_BYTES")
    });
    const consoleAccounts = demo ? await ensureConsoleAccounts(demo, options.dataDir) : null;
    if (consoleAccounts) consoleLayer.attach(api.url, consoleAccounts);
    const workers = [];
    for (const start of WORKER_STARTERS) workers.push(await start(ports2));
    if (options.dataDir) writeRuntimeState(options.dataDir, { pid: process.pid, apiUrl: api.url, dynamoEndpoint: endpoints.dynamo, s3Endpoint: endpoints.s3 });
    const running = { api, dynamo, s3: s32, root };
    return {
      url: api.url,
      demo,
      backends: endpoints,
      console: consoleAccounts,
      ports: ports2,
      settleWorkflows: () => running.root.settleWorkflows(),
      stop: async () => {
        await running.api.close();
        for (const worker of workers.reverse()) await worker.stop();
        await running.root.stop();
        if (options.dataDir) clearRuntimeState(options.dataDir);
        await running.s3?.close();
        await running.dynamo?.close();
      }
    };
  } catch (error) {
    await api?.close();
    await root?.stop();
    await s32?.close();
    await dynamo?.close();
    throw error;
  }
}
function filesPort(apiPort) {
  const configured = process.env.FILES_PORT;
  if (configured !== void 0 && configured !== "") {
    const n = Number(configured);
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`FILES_PORT must be a port number; got '${configured}'`);
    return n;
  }
  return apiPort === 0 ? 0 : apiPort + 1;
}
function filesPublicUrl(s32) {
  const configured = process.env.FILES_PUBLIC_URL;
  if (!configured) return s32.endpoint;
  let url;
  try {
    url = new URL(configured);
  } catch {
    throw new Error(`FILES_PUBLIC_URL must be an absolute http(s) URL; got '${configured}'`);
  }
  if (!/^https?:$/.test(url.protocol) || url.pathname !== "/" && url.pathname !== "" || url.search) {
    throw new Error(`FILES_PUBLIC_URL must be an http(s) origin with no path or query (e.g. http://192.168.1.20:3001); got '${configured}'`);
  }
  return url.origin;
}
function numberFromEnv(name) {
  const value = process.env[name];
  if (value === void 0 || value === "") return void 0;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number of milliseconds; got '${value}'`);
  return n;
}
async function tempDir() {
  const { mkdtemp } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  return mkdtemp(join6(tmpdir(), "pvs-"));
}

// test/reliability/child-runtime.ts
var dataDir = process.argv[2];
var credits = Number(process.argv[3] ?? 1e3);
var runtime = await startRuntime({ port: 0, host: "127.0.0.1", dataDir, maxBodyBytes: 10 * 1024 * 1024, seedDemo: false });
var accountFile = join7(dataDir, "test-account.json");
if (!existsSync(accountFile)) {
  const org = await createOrganization({ name: "Crash test", credits, subscriptionActive: true });
  const user = await createUser(`owner-${org.id}@example.test`);
  await addMember(org.id, user.id, "owner");
  const key4 = await mintKey(org.id, user.id);
  writeFileSync5(accountFile, JSON.stringify({ organizationId: org.id, apiKey: key4.key }));
}
var account = JSON.parse(readFileSync7(accountFile, "utf8"));
process.stdout.write(`${JSON.stringify({ ready: true, url: runtime.url, dynamo: runtime.backends.dynamo, ...account })}
`);
