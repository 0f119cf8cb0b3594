// The error codes each operation can answer (issue 44), operation by operation: those every
// route of its kind can give (`codesOfKind`, from the route's access rule and inputs), and those
// its own work can refuse with (OPERATION_CODES, by operationId). src/openapi.ts writes them into
// each error answer: the codes of that status as the `code` enum of its schema, listed with their
// message in its description, one example each. The suite's answer checker (test/contract.ts)
// validates every error a test receives against that schema, so a code the server sends that its
// operation does not list fails the suite: add it below.
import { ERROR_CATALOGUE, type ErrorCode } from '@app/contract';

/** What decides the codes of a route's kind (src/openapi.ts reads them from the route). */
export interface RouteKind {
  method: string;
  terminal: boolean;
  isPublic: boolean;
  permission: boolean;
  csrf: boolean;
  hasBody: boolean;
  hasParams: boolean;
  hasQuery: boolean;
  /** Declares the Idempotency-Key header: a money request. */
  idempotent: boolean;
  /** Reachable before the two-factor enrolment (`config.beforeMfaEnrolment`). */
  beforeMfaEnrolment: boolean;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The codes any route of this kind can answer, whatever its own work is. */
export function codesOfKind(route: RouteKind): ErrorCode[] {
  // The server failing, the database away or slow, the server shutting down.
  const codes: ErrorCode[] = [
    'SERVER_ERROR',
    'DATABASE_UNAVAILABLE',
    'SERVICE_UNAVAILABLE',
    'TIMEOUT',
  ];
  // A path or query the rules refuse; a path the router cannot decode.
  if (route.hasParams || route.hasQuery) codes.push('QUERY_PARAM_INVALID');
  if (route.hasParams || route.hasQuery || route.hasBody) codes.push('AMOUNT_TOO_LARGE');
  // A body the rules or the parser refuse, too large, of a type the route does not read.
  if (WRITE_METHODS.has(route.method)) {
    codes.push('BODY_INVALID', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
  }
  if (route.terminal) {
    codes.push('UNAUTHORIZED', 'TERMINAL_INACTIVE', 'MERCHANT_INACTIVE', 'TOO_MANY_REQUESTS');
  } else {
    if (route.permission) codes.push('UNAUTHORIZED', 'PERMISSION_DENIED');
    // A session's write without its CSRF token.
    if (WRITE_METHODS.has(route.method) && route.csrf) codes.push('CSRF_INVALID');
    // A signed-in user of a role that must enrol in two-factor sign-in first.
    if (!route.beforeMfaEnrolment) codes.push('MFA_ENROLMENT_REQUIRED');
  }
  if (route.idempotent) codes.push('IDEMPOTENCY_KEY_REQUIRED', 'IDEMPOTENCY_KEY_REUSED');
  return codes;
}

/** What an order can be refused for, at a terminal or at the till (DESIGN 7, spending rules). */
const ORDER_REFUSALS: readonly ErrorCode[] = [
  'COMPANY_INACTIVE',
  'DAILY_LIMIT_EXCEEDED',
  'INSUFFICIENT_TOKENS',
  'MERCHANT_NOT_ALLOWED',
  'NOT_ALLOWED_TODAY',
  'NO_PAYEE_FOUND',
  'ORDER_LIMIT_EXCEEDED',
  'OUTSIDE_ALLOWED_HOURS',
  'PAY_CODE_INVALID',
  'PAY_CODE_REQUIRED',
  'USER_INACTIVE',
];

/** What a refund can be refused for, at a terminal or at the till. */
const REFUND_REFUSALS: readonly ErrorCode[] = [
  'ORDER_ALREADY_REFUNDED',
  'ORDER_NOT_FOUND',
  'REFUND_EXCEEDS_SUBTOTAL',
];

/** A step-up (decision 0083): the sign-in is older than STEP_UP_WINDOW_SECONDS. */
const STEP_UP: readonly ErrorCode[] = ['REAUTHENTICATION_REQUIRED'];

/**
 * The codes an operation's own work can refuse with, beyond those of its kind: what the suite
 * saw each operation answer, and what its service throws.
 */
export const OPERATION_CODES: Record<string, readonly ErrorCode[]> = {
  acceptInvitation: ['INVITATION_ACCOUNT_INACTIVE', 'INVITATION_INVALID', 'PASSWORD_NOT_MATCH'],
  approveApproval: [
    ...STEP_UP,
    'APPROVAL_NOT_PENDING',
    'COMPANY_INACTIVE',
    'APPROVAL_PAYEE_CHANGED',
    'APPROVAL_SELF',
    'RECORD_NOT_FOUND',
    'TOKEN_MONTH_NOT_MATCH',
    'TOTAL_EXCEEDS_AVAILABLE',
    'USER_INACTIVE',
  ],
  chargeAtTill: [...ORDER_REFUSALS, 'RECORD_NOT_FOUND'],
  checkAtTill: ['PAY_CODE_INVALID', 'RECORD_NOT_FOUND'],
  checkOrder: ['PAY_CODE_INVALID'],
  clearSignInThrottle: ['RECORD_NOT_FOUND'],
  createCompany: ['COMPANY_CODE_ALREADY_EXISTS'],
  createCompanyAdmin: ['EMAIL_EXISTS', 'PASSWORD_NOT_MATCH', 'RECORD_NOT_FOUND', 'USERNAME_EXISTS'],
  createEmployee: [
    'EMAIL_EXISTING_IN_OTHER_COMPANY',
    'EMAIL_EXISTING_IN_THIS_COMPANY',
    'EMPLOYEE_ID_EXISTING_IN_THIS_COMPANY',
    'RECORD_NOT_FOUND',
  ],
  createEmployeeAccount: [
    'EMPLOYEE_ACCOUNT_EXISTS',
    'PASSWORD_NOT_MATCH',
    'RECORD_NOT_FOUND',
    'USERNAME_EXISTS',
  ],
  createMerchant: ['MERCHANT_CODE_ALREADY_EXISTS'],
  createScimToken: ['RECORD_NOT_FOUND'],
  createTerminal: ['RECORD_NOT_FOUND', 'TERMINAL_CODE_ALREADY_EXISTS'],
  createUser: ['EMAIL_EXISTS', 'PASSWORD_NOT_MATCH', 'RECORD_NOT_FOUND', 'USERNAME_EXISTS'],
  createWebhook: ['WEBHOOK_EVENT_NOT_ALLOWED', 'WEBHOOK_URL_NOT_ALLOWED'],
  deleteEmployee: ['RECORD_NOT_FOUND'],
  deleteMerchant: ['RECORD_NOT_FOUND'],
  deleteTerminal: ['RECORD_NOT_FOUND'],
  deleteUser: ['CANNOT_CHANGE_OWN_ACCOUNT', 'RECORD_NOT_FOUND'],
  deleteWebhook: ['RECORD_NOT_FOUND'],
  disableTotp: ['MFA_CODE_INVALID', 'MFA_NOT_ENABLED'],
  distributeTokens: [
    ...STEP_UP,
    'APPROVAL_NOT_CONFIGURED',
    'COMPANY_INACTIVE',
    'RECORD_NOT_FOUND',
    'TOKEN_MONTH_NOT_MATCH',
    'TOTAL_EXCEEDS_AVAILABLE',
    'USER_INACTIVE',
  ],
  exportAuditLog: ['EXPORT_TOO_LARGE'],
  exportCompanySummaryReport: ['EXPORT_TOO_LARGE', 'RECORD_NOT_FOUND'],
  exportEmployees: ['EXPORT_TOO_LARGE'],
  exportOrders: ['EXPORT_TOO_LARGE'],
  exportSettlementStatement: ['EXPORT_TOO_LARGE', 'RECORD_NOT_FOUND'],
  exportSettlements: ['EXPORT_TOO_LARGE', 'RECORD_NOT_FOUND'],
  exportSummaryReport: ['EXPORT_TOO_LARGE', 'RECORD_NOT_FOUND'],
  exportTransactions: ['EXPORT_TOO_LARGE'],
  findOrderByIdempotencyKey: ['ORDER_NOT_FOUND'],
  getCompany: ['RECORD_NOT_FOUND'],
  getCompanySummaryReport: ['RECORD_NOT_FOUND'],
  getDashboard: ['RECORD_NOT_FOUND', 'TOTAL_TOO_LARGE'],
  getDashboardSummary: ['TOTAL_TOO_LARGE'],
  getEmployee: ['RECORD_NOT_FOUND'],
  getMerchant: ['RECORD_NOT_FOUND'],
  getOrder: ['ORDER_NOT_FOUND'],
  getOwnWallet: ['RECORD_NOT_FOUND'],
  getSettlementStatement: ['RECORD_NOT_FOUND'],
  getSettlementStatementPdf: ['RECORD_NOT_FOUND'],
  getSpendingException: ['RECORD_NOT_FOUND'],
  getSpendingRules: ['RECORD_NOT_FOUND'],
  getSummaryReport: ['RECORD_NOT_FOUND', 'TOTAL_TOO_LARGE'],
  getTerminal: ['RECORD_NOT_FOUND'],
  getTerminalOrder: ['ORDER_NOT_FOUND'],
  // Its kind's codes only: PERMISSION_DENIED for a user of no merchant, QUERY_PARAM_INVALID for a
  // date that is not one; a day without orders is an answer of zeros, never a 404.
  getTillTakings: [],
  getTokenConfiguration: ['RECORD_NOT_FOUND'],
  getUser: ['RECORD_NOT_FOUND'],
  getWebhook: ['RECORD_NOT_FOUND'],
  importEmployees: [
    'EMPTY_FILE',
    'FILE_CELL_TOO_LONG',
    'FILE_INVALID',
    'FILE_TOO_LARGE',
    'TOO_MANY_FILES',
  ],
  // An invitation creates the account as createCompanyAdmin and createUser do (its password made).
  inviteCompanyAdmin: ['EMAIL_EXISTS', 'RECORD_NOT_FOUND', 'USERNAME_EXISTS'],
  inviteUser: ['EMAIL_EXISTS', 'RECORD_NOT_FOUND', 'USERNAME_EXISTS'],
  issueCompanyTokens: [
    ...STEP_UP,
    'APPROVAL_NOT_CONFIGURED',
    'COMPANY_INACTIVE',
    'RECORD_NOT_FOUND',
  ],
  listEmployeePayDevices: ['RECORD_NOT_FOUND'],
  listOwnPayDevices: ['RECORD_NOT_FOUND'],
  listScimRequests: ['RECORD_NOT_FOUND'],
  listScimTokens: ['RECORD_NOT_FOUND'],
  listSettlements: ['RECORD_NOT_FOUND'],
  listTillOrders: ['BODY_INVALID', 'RECORD_NOT_FOUND'],
  listWebhookDeliveries: ['RECORD_NOT_FOUND'],
  listIdentityProviders: [],
  putIdentityProviders: ['EMAIL_DOMAIN_TAKEN', 'MFA_NOT_CONFIGURED', 'RECORD_NOT_FOUND'],
  matchIdentityProvider: ['TOO_MANY_REQUESTS'],
  startOidcSignIn: ['TOO_MANY_REQUESTS'],
  completeOidcSignIn: [],
  login: ['INVALID_CREDENTIALS', 'TOO_MANY_REQUESTS', 'USER_INACTIVE'],
  loginSecondStep: ['MFA_CHALLENGE_INVALID', 'MFA_CODE_INVALID', 'TOO_MANY_REQUESTS'],
  lookupInvitation: ['INVITATION_ACCOUNT_INACTIVE', 'INVITATION_INVALID'],
  placeOrder: [...ORDER_REFUSALS],
  previewEmployeeImport: [
    'EMPTY_FILE',
    'FILE_CELL_TOO_LONG',
    'FILE_INVALID',
    'FILE_TOO_LARGE',
    'FILE_TOO_MANY_COLUMNS',
    'TOO_MANY_FILES',
  ],
  previewRewardImport: ['EMPTY_FILE', 'FILE_INVALID', 'FILE_TOO_LARGE'],
  previewSpendingRules: ['RECORD_NOT_FOUND'],
  putSpendingException: [...STEP_UP, 'RECORD_NOT_FOUND'],
  putSpendingRules: [...STEP_UP, 'RECORD_NOT_FOUND'],
  refundAtTill: [...REFUND_REFUSALS],
  refundOrder: [...REFUND_REFUSALS],
  registerPayDevice: ['PAY_DEVICE_LIMIT', 'RECORD_NOT_FOUND'],
  rejectApproval: ['APPROVAL_SELF', 'RECORD_NOT_FOUND'],
  removeEmployeePayDevice: ['RECORD_NOT_FOUND'],
  removeOwnPayDevice: ['PAY_DEVICE_NOT_FOUND', 'RECORD_NOT_FOUND'],
  reauthenticate: [
    'CURRENT_PASSWORD_INVALID',
    'CURRENT_PASSWORD_REQUIRED',
    'MFA_CODE_INVALID',
    'TOO_MANY_REQUESTS',
  ],
  removeSpendingException: [...STEP_UP, 'RECORD_NOT_FOUND'],
  // The ledger refuses a company that is not active (ledger/issue.service.ts, reset.service.ts).
  renewEmployee: ['COMPANY_INACTIVE', 'RECORD_NOT_FOUND', 'USER_INACTIVE'],
  resendCompanyAdminInvitation: ['INVITATION_NOT_PENDING', 'RECORD_NOT_FOUND'],
  resendUserInvitation: ['INVITATION_NOT_PENDING', 'RECORD_NOT_FOUND'],
  resetUserMfa: ['MFA_RESET_OWN', 'RECORD_NOT_FOUND'],
  retryWebhookDelivery: ['RECORD_NOT_FOUND'],
  revokeScimToken: ['RECORD_NOT_FOUND'],
  rotateTerminalKey: ['RECORD_NOT_FOUND'],
  rotateWebhookSecret: ['RECORD_NOT_FOUND'],
  // A type the endpoint's scope may not receive; a disabled endpoint (decision 0084).
  sendTestWebhook: ['RECORD_NOT_FOUND', 'WEBHOOK_DISABLED', 'WEBHOOK_EVENT_NOT_ALLOWED'],
  setApprovalPolicy: STEP_UP,
  startTotpEnrolment: ['MFA_ALREADY_ENABLED', 'MFA_NOT_CONFIGURED'],
  updateCompany: ['RECORD_NOT_FOUND'],
  updateCompanyAdmin: ['PASSWORD_NOT_MATCH', 'RECORD_NOT_FOUND', 'USERNAME_EXISTS'],
  updateCompanyAdminStatus: ['RECORD_NOT_FOUND'],
  updateCompanyStatus: ['RECORD_NOT_FOUND'],
  updateEmployee: [
    'EMAIL_EXISTING_IN_OTHER_COMPANY',
    'EMAIL_EXISTING_IN_THIS_COMPANY',
    'EMPLOYEE_ID_EXISTING_IN_THIS_COMPANY',
    'RECORD_NOT_FOUND',
  ],
  updateEmployeeStatus: ['RECORD_NOT_FOUND'],
  updateMerchant: ['RECORD_NOT_FOUND'],
  updateMerchantStatus: ['RECORD_NOT_FOUND'],
  updateTerminal: ['RECORD_NOT_FOUND'],
  updateTerminalStatus: ['RECORD_NOT_FOUND'],
  updateTokenConfiguration: ['RECORD_NOT_FOUND'],
  updateUser: [
    'CANNOT_CHANGE_OWN_ACCOUNT',
    'CURRENT_PASSWORD_INVALID',
    'CURRENT_PASSWORD_REQUIRED',
    'EMAIL_EXISTS',
    'ONLY_MERCHANT_ADMIN_UPDATABLE',
    'PASSWORD_NOT_MATCH',
    'RECORD_NOT_FOUND',
    'TOO_MANY_REQUESTS',
    'USERNAME_EXISTS',
  ],
  updateUserStatus: ['CANNOT_CHANGE_OWN_ACCOUNT', 'RECORD_NOT_FOUND'],
  updateWebhook: ['RECORD_NOT_FOUND', 'WEBHOOK_URL_NOT_ALLOWED'],
  verifyTotpEnrolment: ['MFA_CODE_INVALID'],
  withdrawSpendingRules: [...STEP_UP, 'RECORD_NOT_FOUND', 'SPENDING_RULE_NOT_FOUND'],
};

/** Every code an operation can answer, grouped by the HTTP status it comes with. */
export function codesByStatus(
  operationId: string | undefined,
  route: RouteKind,
): Map<string, ErrorCode[]> {
  const codes = new Set<ErrorCode>([
    ...codesOfKind(route),
    ...((operationId && OPERATION_CODES[operationId]) || []),
  ]);
  const byStatus = new Map<string, ErrorCode[]>();
  for (const code of [...codes].sort()) {
    const status = String(ERROR_CATALOGUE[code].status);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}
