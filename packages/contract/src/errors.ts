type Entry = { status: number; en: string; zh: string };

/**
 * The error catalogue of spec 8, with the codes this server adds (DESIGN 4: every code the
 * server sends is listed here). `status` is the HTTP status the API answers with.
 */
export const ERROR_CATALOGUE = {
  ACCOUNT_LOCKED: {
    status: 423,
    en: 'Your account is locked. Please contact support.',
    zh: '您的账户已被锁定，请联系客服。',
  },
  APPROVAL_NOT_CONFIGURED: {
    status: 409,
    en: 'Please setup approval for the current account',
    zh: '请为当前账户设置审批',
  },
  // Four-eyes approvals (DESIGN 6, decision 0039).
  APPROVAL_SELF: {
    status: 403,
    en: 'You cannot decide a request you made yourself; another person must.',
    zh: '您不能审批自己提交的申请，须由其他人审批。',
  },
  // Issue 39 (decision 0069): the payee of a held distribution was renumbered or renamed since.
  APPROVAL_PAYEE_CHANGED: {
    status: 409,
    en: 'An employee of this request was renumbered or renamed since it was made; check the change and confirm it to approve.',
    zh: '该申请提交后，有员工的工号或姓名已变更；请核对变更并确认后再审批。',
  },
  APPROVAL_NOT_PENDING: {
    status: 409,
    en: 'This request has already been decided or has expired.',
    zh: '该申请已被处理或已过期。',
  },
  BODY_INVALID: { status: 400, en: 'The request body is invalid.', zh: '请求内容无效。' },
  DATA_EXISTS: { status: 409, en: 'This data already exists.', zh: '该数据已存在。' },
  DUPLICATE_USER: { status: 409, en: 'This user already exists.', zh: '该用户已存在。' },
  EMAIL_ALREADY_EXISTS: { status: 409, en: 'Email already exists', zh: '邮箱已存在' },
  EMAIL_EXISTS: { status: 409, en: 'Email is already registered', zh: '邮箱已被注册' },
  EMAIL_EXISTING_IN_THIS_COMPANY: {
    status: 409,
    en: 'Email already exists in this company',
    zh: '该邮箱已存在于本公司',
  },
  EMAIL_EXISTING_IN_OTHER_COMPANY: {
    status: 409,
    en: 'Email already exists in another company',
    zh: '该邮箱已存在于其他公司',
  },
  EMPLOYEE_ID_EXISTING_IN_THIS_COMPANY: {
    status: 409,
    en: 'Employee ID already exists in this company',
    zh: '该员工编号已存在于本公司',
  },
  EMPLOYEE_ACCOUNT_EXISTS: {
    status: 409,
    en: 'This employee already has a sign-in',
    zh: '该员工已有登录账号',
  },
  EMPTY_FILE: { status: 400, en: 'The uploaded file is empty.', zh: '上传的文件为空。' },
  INVALID_TOKEN: {
    status: 401,
    en: 'The provided token is invalid or has expired.',
    zh: '提供的令牌无效或已过期。',
  },
  NO_PAYEE_FOUND: { status: 404, en: 'No payee was found.', zh: '未找到收款人。' },
  ORDER_NOT_FOUND: {
    status: 404,
    en: 'The specified order was not found.',
    zh: '未找到指定的订单。',
  },
  PASSWORD_NOT_MATCH: {
    status: 400,
    en: 'The passwords do not match.',
    zh: '两次输入的密码不一致。',
  },
  PERMISSION_DENIED: {
    status: 403,
    en: 'You do not have permission to perform this action.',
    zh: '您没有执行此操作的权限。',
  },
  QUERY_PARAM_INVALID: {
    status: 400,
    en: 'The query parameters are invalid.',
    zh: '查询参数无效。',
  },
  RECORD_NOT_FOUND: {
    status: 404,
    en: 'The requested record was not found.',
    zh: '未找到请求的记录。',
  },
  SERVER_ERROR: {
    status: 500,
    en: 'An error occurred. Please try again later.',
    zh: '发生错误，请稍后重试。',
  },
  SOMETHING_WENT_WRONG: {
    status: 500,
    en: 'Something went wrong on our end. Please try again later.',
    zh: '服务器出现问题，请稍后重试。',
  },
  TERMINAL_CODE_ALREADY_EXISTS: {
    status: 409,
    en: 'This terminal code already exists for the merchant.',
    zh: '该商户下已存在此终端编码。',
  },
  TERMINAL_INACTIVE: { status: 403, en: 'The terminal is inactive.', zh: '终端已停用。' },
  TIMEOUT: {
    status: 504,
    en: 'The request timed out. Please try again.',
    zh: '请求超时，请重试。',
  },
  UNAUTHORIZED: {
    status: 401,
    en: 'You are not authorized to perform this action.',
    zh: '您无权执行此操作。',
  },
  USERNAME_ALREADY_EXISTS: { status: 409, en: 'Username already exists', zh: '用户名已存在' },
  USERNAME_EXISTS: { status: 409, en: 'Username already exists', zh: '用户名已存在' },
  USER_INACTIVE: { status: 403, en: 'This user is inactive.', zh: '该用户已停用。' },
  USER_NOT_FOUND: {
    status: 404,
    en: "This account doesn't exist. Please check your email or sign up.",
    zh: '该账户不存在，请检查邮箱或注册。',
  },
  USERNAME_OR_EMAIL_ALREADY_EXISTS: {
    status: 409,
    en: 'Username or email already exists',
    zh: '用户名或邮箱已存在',
  },
  MERCHANT_INACTIVE: { status: 403, en: 'The merchant is inactive.', zh: '商户已停用。' },
  MERCHANT_CODE_ALREADY_EXISTS: {
    status: 409,
    en: 'Merchant code already exists',
    zh: '商户编码已存在',
  },
  TOKEN_MONTH_NOT_MATCH: {
    status: 409,
    en: 'User has not been renewed. Please renew before reward.',
    zh: '用户尚未续期，请先续期再发放。',
  },

  // Added by this server (DESIGN 4 allows additions with both languages).
  INVALID_CREDENTIALS: {
    status: 401,
    en: 'Incorrect username or password.',
    zh: '用户名或密码错误。',
  },
  CSRF_INVALID: {
    status: 403,
    en: 'Your security token is missing or invalid. Please refresh the page.',
    zh: '安全令牌缺失或无效，请刷新页面。',
  },
  TOO_MANY_REQUESTS: {
    status: 429,
    en: 'Too many requests. Please wait and try again.',
    zh: '请求过于频繁，请稍后再试。',
  },
  ROUTE_NOT_FOUND: { status: 404, en: 'This address does not exist.', zh: '该地址不存在。' },
  PAYLOAD_TOO_LARGE: { status: 413, en: 'The request is too large.', zh: '请求内容过大。' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    en: 'This content type is not supported.',
    zh: '不支持该内容类型。',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    en: 'The service is temporarily unavailable. Please try again shortly.',
    zh: '服务暂时不可用，请稍后重试。',
  },
  DATABASE_UNAVAILABLE: {
    status: 503,
    en: 'The database is unreachable for a moment (a restart or failover). Please try again shortly.',
    zh: '数据库暂时无法连接（正在重启或切换），请稍后重试。',
  },
  // Spending rules at the till (DESIGN 7, issue 42): 409 with the figures in `details`.
  DAILY_LIMIT_EXCEEDED: {
    status: 409,
    en: 'The daily limit of {{daily_limit}} tokens is reached: {{remaining_today}} left today.',
    zh: '已达每日限额 {{daily_limit}} 代币：今天还可用 {{remaining_today}}。',
  },
  ORDER_LIMIT_EXCEEDED: {
    status: 409,
    en: 'An order may be at most {{order_limit}} tokens.',
    zh: '单笔订单最多 {{order_limit}} 代币。',
  },
  OUTSIDE_ALLOWED_HOURS: {
    status: 409,
    en: 'Tokens cannot be spent at this time of day.',
    zh: '当前时段不能使用代币。',
  },
  NOT_ALLOWED_TODAY: {
    status: 409,
    en: 'Tokens cannot be spent today.',
    zh: '今天不能使用代币。',
  },
  MERCHANT_NOT_ALLOWED: {
    status: 409,
    en: 'Tokens cannot be spent at this kind of merchant.',
    zh: '代币不能在此类商户使用。',
  },
  // Pay codes (DESIGN 8, issue 43): one answer for a reused, an expired and an unknown code.
  PAY_CODE_INVALID: {
    status: 409,
    en: 'This pay code is not valid: ask for the code on screen now.',
    zh: '付款码无效：请出示当前屏幕上的付款码。',
  },
  PAY_CODE_REQUIRED: {
    status: 409,
    en: 'This company pays by pay code only: scan the code in the employee’s wallet.',
    zh: '该公司仅支持付款码支付：请扫描员工钱包中的付款码。',
  },
  PAY_DEVICE_LIMIT: {
    status: 409,
    en: 'At most {{max_devices}} phones can pay: remove one first.',
    zh: '最多 {{max_devices}} 部手机可付款：请先移除一部。',
  },
  PAY_DEVICE_NOT_FOUND: {
    status: 404,
    en: 'This pay device was not found.',
    zh: '未找到该付款设备。',
  },
  SPENDING_RULE_NOT_FOUND: {
    status: 404,
    en: 'No scheduled version of the spending rules takes effect on this date.',
    zh: '该日期没有待生效的消费规则版本。',
  },
  INSUFFICIENT_TOKENS: {
    status: 409,
    en: 'The balance does not cover this amount.',
    zh: '余额不足以支付该金额。',
  },
  TOTAL_EXCEEDS_AVAILABLE: {
    status: 409,
    en: 'Total tokens exceed available limit!',
    zh: '代币总数超出可用额度！',
  },
  COMPANY_INACTIVE: { status: 403, en: 'The company is inactive.', zh: '公司已停用。' },
  COMPANY_CODE_ALREADY_EXISTS: {
    status: 409,
    en: 'Company code already exists',
    zh: '公司编码已存在',
  },
  IDEMPOTENCY_KEY_REQUIRED: {
    status: 400,
    en: 'An Idempotency-Key header is required.',
    zh: '需要 Idempotency-Key 请求头。',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    en: 'This Idempotency-Key was used for a different request.',
    zh: '该 Idempotency-Key 已用于其他请求。',
  },
  REFUND_EXCEEDS_SUBTOTAL: {
    status: 409,
    en: 'The refund exceeds what remains of the order.',
    zh: '退款金额超过订单剩余金额。',
  },
  ORDER_ALREADY_REFUNDED: {
    status: 409,
    en: 'The order is already fully refunded.',
    zh: '该订单已全额退款。',
  },
  FILE_TOO_LARGE: { status: 413, en: 'The file is too large.', zh: '文件过大。' },
  FILE_INVALID: {
    status: 400,
    en: 'The file could not be read as a CSV in UTF-8.',
    zh: '无法将该文件读取为 UTF-8 编码的 CSV。',
  },
  CANNOT_CHANGE_OWN_ACCOUNT: {
    status: 403,
    en: 'You cannot deactivate or delete your own account.',
    zh: '您不能停用或删除自己的账户。',
  },
  ONLY_MERCHANT_ADMIN_UPDATABLE: {
    status: 403,
    en: 'Only merchant admin can be updated',
    zh: '只能更新商户管理员',
  },
  EXPORT_TOO_LARGE: {
    status: 422,
    en: 'This export has too many rows. Narrow the filters and try again.',
    zh: '导出的行数过多，请缩小筛选范围后重试。',
  },
  // A sum of token amounts beyond 2^53 - 1 cannot travel exactly in JSON (issue 7).
  TOTAL_TOO_LARGE: {
    status: 422,
    en: 'A total is too large to show exactly. Narrow the report and try again.',
    zh: '合计数值过大，无法精确显示，请缩小报表范围后重试。',
  },
  // Two-factor sign-in (DESIGN 4.1).
  MFA_CODE_INVALID: {
    status: 400,
    en: 'The code is not valid. Check your authenticator app and try again.',
    zh: '验证码无效，请检查您的身份验证器应用后重试。',
  },
  MFA_CHALLENGE_INVALID: {
    status: 401,
    en: 'This sign-in has expired or had too many wrong codes. Please sign in again.',
    zh: '本次登录已过期或错误次数过多，请重新登录。',
  },
  MFA_ALREADY_ENABLED: {
    status: 409,
    en: 'Two-factor sign-in is already on.',
    zh: '两步验证登录已开启。',
  },
  MFA_NOT_ENABLED: {
    status: 409,
    en: 'Two-factor sign-in is not on.',
    zh: '两步验证登录未开启。',
  },
  MFA_ENROLMENT_NOT_STARTED: {
    status: 409,
    en: 'Start setting up two-factor sign-in first.',
    zh: '请先开始设置两步验证登录。',
  },
  MFA_NOT_CONFIGURED: {
    status: 409,
    en: 'Two-factor sign-in is not configured on this server. Please contact your administrator.',
    zh: '此服务器未配置两步验证登录，请联系管理员。',
  },
  MFA_ENROLMENT_REQUIRED: {
    status: 403,
    en: 'Your role requires two-factor sign-in. Please turn it on to continue.',
    zh: '您的角色要求开启两步验证登录，请先开启后再继续。',
  },
  // Issue 19 item 5: one-time set-password links (decision 0025).
  INVITATION_INVALID: {
    status: 410,
    en: 'This link is invalid, has expired or was already used. Ask your administrator for a new one.',
    zh: '该链接无效、已过期或已被使用，请向管理员索取新的链接。',
  },
  INVITATION_NOT_PENDING: {
    status: 409,
    en: 'This account already has a password: there is no invitation to send again.',
    zh: '该账户已设置密码，没有可重新发送的邀请。',
  },
  // Issue 14: refusals that name what went wrong, and HTTP the server could not read.
  AMOUNT_TOO_LARGE: {
    status: 422,
    en: 'An amount is too large: past 9,007,199,254,740,991 or what a wallet can hold.',
    zh: '数量过大：超过 9,007,199,254,740,991 或钱包可持有的上限。',
  },
  TOO_MANY_FILES: {
    status: 400,
    en: 'Upload one file at a time.',
    zh: '一次只能上传一个文件。',
  },
  FILE_TOO_MANY_COLUMNS: {
    status: 400,
    en: 'A row of the file has too many columns (at most 50).',
    zh: '文件中某一行的列数过多（最多 50 列）。',
  },
  FILE_CELL_TOO_LONG: {
    status: 400,
    en: 'A cell of the file is too long (at most 1,000 characters).',
    zh: '文件中的单元格过长（最多 1,000 个字符）。',
  },
  REQUEST_INVALID: {
    status: 400,
    en: 'The request could not be read.',
    zh: '无法读取该请求。',
  },
  REQUEST_TIMEOUT: {
    status: 408,
    en: 'The request took too long to arrive.',
    zh: '请求发送超时。',
  },
  URI_TOO_LONG: { status: 414, en: 'The address is too long.', zh: '请求地址过长。' },
  HEADERS_TOO_LARGE: {
    status: 431,
    en: 'The request headers are too large.',
    zh: '请求头过大。',
  },
  // Webhooks (DESIGN 6 "Integrations", decision 0038).
  WEBHOOK_URL_NOT_ALLOWED: {
    status: 400,
    en: 'This address cannot receive webhooks: use https and a public address.',
    zh: '该地址无法接收 Webhook：请使用 https 和公网地址。',
  },
  WEBHOOK_EVENT_NOT_ALLOWED: {
    status: 400,
    en: 'Your role cannot receive one of these events.',
    zh: '您的角色无法接收其中某些事件。',
  },
  // Issue 44: a test event to a disabled endpoint would wait, unsent (decision 0084).
  WEBHOOK_DISABLED: {
    status: 409,
    en: 'This endpoint is disabled: enable it before sending a test event.',
    zh: '此端点已停用：请先启用，再发送测试事件。',
  },
  // Issue 39: re-authentication for one's own security (decision 0070).
  CURRENT_PASSWORD_REQUIRED: {
    status: 400,
    en: 'Enter your current password to set a new one.',
    zh: '设置新密码前请输入当前密码。',
  },
  CURRENT_PASSWORD_INVALID: {
    status: 400,
    en: 'Your current password is not correct.',
    zh: '当前密码不正确。',
  },
  // Step-up (DESIGN 9, issue 45): a money decision or a rules change asks for a fresh proof.
  REAUTHENTICATION_REQUIRED: {
    status: 401,
    en: 'Confirm it is you: enter your password or code again to continue.',
    zh: '请确认是您本人：再次输入密码或验证码后继续。',
  },
  MFA_RESET_OWN: {
    status: 403,
    en: 'To turn off your own two-factor sign-in, use your security settings and enter a code.',
    zh: '如需关闭您自己的两步验证登录，请在安全设置中输入验证码后操作。',
  },
  INVITATION_ACCOUNT_INACTIVE: {
    status: 403,
    en: 'This account is deactivated, so its link cannot be used. Ask your administrator.',
    zh: '该账户已停用，无法使用此链接，请联系管理员。',
  },
  // OIDC sign-in (DESIGN 9, issue 45, decision 0086).
  OIDC_SIGN_IN_FAILED: {
    status: 401,
    en: 'Single sign-on did not complete. Please try again, or sign in with your password.',
    zh: '单点登录未完成，请重试，或使用密码登录。',
  },
  OIDC_STATE_INVALID: {
    status: 400,
    en: 'This sign-in has expired or was already used. Please start it again.',
    zh: '此次登录已过期或已被使用，请重新开始登录。',
  },
  OIDC_ACCOUNT_NOT_ALLOWED: {
    status: 403,
    en: 'Your identity provider did not confirm an email address that may sign in here. Please contact your administrator.',
    zh: '您的身份提供方未确认可在此登录的邮箱地址，请联系管理员。',
  },
  IDENTITY_PROVIDER_UNAVAILABLE: {
    status: 502,
    en: 'The identity provider could not be reached. Please try again later.',
    zh: '无法连接身份提供方，请稍后重试。',
  },
  EMAIL_DOMAIN_TAKEN: {
    status: 409,
    en: 'An email domain can belong to one identity provider only.',
    zh: '一个邮箱域名只能属于一个身份提供方。',
  },
} as const satisfies Record<string, Entry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];
export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERROR_CATALOGUE, value);

/** Other messages of spec 8 (toasts the web app shows). */
export const UI_MESSAGES = {
  unexpected: {
    en: 'An unexpected error occurred. Please try again!',
    zh: '发生意外错误，请重试！',
  },
  unknown: { en: 'Unknown error', zh: '未知错误' },
  login_failed: { en: 'Login failed.', zh: '登录失败。' },
  system_error: { en: 'System Error.', zh: '系统错误。' },
} as const;
