/**
 * The contract's plain values: no zod here, so a client can import them without loading the
 * schema library (the web app's first load does: issue 6). The modules that define schemas
 * re-export them, so `@app/contract` still exports every name; `@app/contract/constants` is the
 * zod-free way in.
 */

/** Every user type the platform knows (spec 1, DESIGN 2). */
export const ROLES = [
  'admin',
  'super_hr',
  'company_admin',
  'company_employee',
  'merchant_admin',
  'merchant_supervisor',
  'merchant_staff',
] as const;
export type Role = (typeof ROLES)[number];

/** Role labels of spec 3 (the badge and list labels), in both languages. */
export const ROLE_LABELS: Record<Role, { en: string; zh: string }> = {
  admin: { en: 'Super Admin', zh: '超级管理员' },
  super_hr: { en: 'Group HR', zh: '集团人事' },
  company_admin: { en: 'Admin', zh: '管理员' },
  company_employee: { en: 'Employee', zh: '员工' },
  merchant_admin: { en: 'Admin', zh: '管理员' },
  merchant_supervisor: { en: 'Supervisor', zh: '主管' },
  merchant_staff: { en: 'Staff', zh: '职员' },
};

/** The user-menu badge of spec 2: Admin, Group HR or Company. */
export const ROLE_BADGES: Partial<Record<Role, { en: string; zh: string }>> = {
  admin: { en: 'Admin', zh: '管理员' },
  super_hr: { en: 'Group HR', zh: '集团人事' },
  company_admin: { en: 'Company', zh: '公司' },
};

/** Types an admin may create on the User Management screen. */
export const PLATFORM_USER_TYPES = ['admin', 'super_hr'] as const satisfies readonly Role[];
/** Merchant staff role options. */
export const MERCHANT_ROLES = [
  'merchant_admin',
  'merchant_supervisor',
  'merchant_staff',
] as const satisfies readonly Role[];

export const isMerchantRole = (role: Role): boolean =>
  (MERCHANT_ROLES as readonly Role[]).includes(role);

export const STATUSES = ['active', 'inactive'] as const;
export const ORDER_STATUSES = ['ordered', 'refunded'] as const;

/** A token month, YYYY-MM (`monthSchema`). */
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * Field messages of spec 5. Schemas carry the key (`v.*`); the API renders it in the caller's
 * language for `metadata`, the web app translates it in forms. One wording, both places.
 */
export const VALIDATION_MESSAGES = {
  'v.required': { en: 'This field is required', zh: '此项为必填项' },
  'v.code_length': { en: 'Code must be 3 to 12 characters', zh: '编码须为 3 至 12 个字符' },
  'v.code_chars': { en: 'Code may contain letters and numbers only', zh: '编码只能包含字母和数字' },
  'v.name_required': { en: 'Name is required', zh: '名称为必填项' },
  'v.employee_id_min': {
    en: 'Employee ID must be at least 2 characters',
    zh: '员工编号至少 2 个字符',
  },
  'v.employee_id_max': {
    en: 'Employee ID must be at most 50 characters',
    zh: '员工编号最多 50 个字符',
  },
  'v.username_required': { en: 'Username is required', zh: '用户名为必填项' },
  'v.username_length': {
    en: 'Username must be 3 to 20 characters',
    zh: '用户名须为 3 至 20 个字符',
  },
  'v.username_chars': {
    en: 'Username may contain letters, numbers, underscore and dot only',
    zh: '用户名只能包含字母、数字、下划线和点',
  },
  'v.password_required': { en: 'Password is required', zh: '密码为必填项' },
  'v.password_length': { en: 'Password must be 8 to 32 characters', zh: '密码须为 8 至 32 个字符' },
  'v.password_upper': {
    en: 'Password must contain an upper-case letter',
    zh: '密码须包含一个大写字母',
  },
  'v.password_lower': {
    en: 'Password must contain a lower-case letter',
    zh: '密码须包含一个小写字母',
  },
  'v.password_digit': { en: 'Password must contain a digit', zh: '密码须包含一个数字' },
  'v.password_special': {
    en: 'Password must contain a special character',
    zh: '密码须包含一个特殊字符',
  },
  'v.password_match': { en: 'The passwords do not match', zh: '两次输入的密码不一致' },
  'v.email_required': { en: 'Email is required', zh: '邮箱为必填项' },
  'v.email_invalid': { en: 'Email is invalid', zh: '邮箱格式无效' },
  'v.initial_token_min': { en: 'Initial token must be at least 0', zh: '初始代币不能小于 0' },
  'v.reset_day_required': { en: 'Reset day is required', zh: '重置日为必填项' },
  'v.reset_day_range': { en: 'Reset day must be between 1 and 31', zh: '重置日须在 1 至 31 之间' },
  'v.status_required': { en: 'Status is required', zh: '状态为必填项' },
  'v.company_required': { en: 'Company ID is required', zh: '公司 ID 为必填项' },
  'v.integer': { en: 'Must be a whole number', zh: '必须为整数' },
  'v.amount_positive': { en: 'Amount must be greater than 0', zh: '数量必须大于 0' },
  'v.tokens_min_one': {
    en: 'Enter an amount for at least one employee',
    zh: '请至少为一名员工输入数量',
  },
  'v.tokens_exceed': { en: 'Total tokens exceed available limit!', zh: '代币总数超出可用额度！' },
  'v.file_required': { en: 'Please select a file', zh: '请选择文件' },
  'v.type_invalid': {
    en: 'Choose one of the user types offered',
    zh: '请选择提供的用户类型之一',
  },
  'v.merchant_required': { en: 'Merchant is required', zh: '商户为必填项' },
  'v.merchant_not_allowed': {
    en: 'Only merchant users belong to a merchant',
    zh: '只有商户用户才隶属于商户',
  },
  'v.date_invalid': { en: 'Enter a valid date (YYYY-MM-DD)', zh: '请输入有效日期（YYYY-MM-DD）' },
  'v.reset_date_future': {
    en: 'The reset date must be after today',
    zh: '重置日期必须晚于今天',
  },
  'v.unknown_field': { en: 'This field is not allowed', zh: '不允许此字段' },
  'v.duplicate_in_file': {
    en: 'This value already appears on an earlier line of the file',
    zh: '该值已在文件的前面行中出现',
  },
  // Issue 14: messages that say what is wrong with a date, a cursor, a number or an upload.
  'v.date_not_in_calendar': {
    en: 'This day does not exist in the calendar',
    zh: '日历中不存在该日期',
  },
  'v.year_range': {
    en: 'The year must be between 1970 and 9999',
    zh: '年份须在 1970 至 9999 之间',
  },
  'v.month_invalid': { en: 'Enter a valid month (YYYY-MM)', zh: '请输入有效月份（YYYY-MM）' },
  'v.date_order': {
    en: 'The end date must not be before the start date',
    zh: '结束日期不能早于开始日期',
  },
  'v.cursor_invalid': {
    en: 'This page position is invalid or was altered; start again from the first page',
    zh: '分页位置无效或已被更改，请从第一页重新开始',
  },
  'v.number_invalid': { en: 'Must be a number', zh: '必须为数字' },
  'v.number_range': { en: 'Must be a whole number within range', zh: '必须为范围内的整数' },
  'v.amount_too_large': {
    en: 'The amount is too large (at most 9,007,199,254,740,991)',
    zh: '数量过大（最多 9,007,199,254,740,991）',
  },
  'v.subtotal_too_large': {
    en: 'The order total is too large (at most 9,007,199,254,740,991)',
    zh: '订单总额过大（最多 9,007,199,254,740,991）',
  },
  'v.balance_cap': {
    en: 'This would take the balance past the most a wallet can hold (9,007,199,254,740,991)',
    zh: '这将使余额超过钱包可持有的上限（9,007,199,254,740,991）',
  },
  'v.json_invalid': { en: 'The body is not valid JSON', zh: '请求内容不是有效的 JSON' },
  'v.too_many_files': { en: 'Upload one file at a time', zh: '一次只能上传一个文件' },
  'v.cell_too_long': {
    en: 'A cell may hold at most 1,000 characters',
    zh: '单元格最多 1,000 个字符',
  },
  'v.too_many_columns': {
    en: 'A row may hold at most 50 columns',
    zh: '每行最多 50 列',
  },
  'v.invalid': { en: 'Invalid value', zh: '值无效' },
  'v.employee_not_found': {
    en: 'No employee of this company has this Employee ID',
    zh: '本公司没有该员工编号的员工',
  },
  'v.employee_inactive': {
    en: 'This employee is inactive and cannot receive tokens',
    zh: '该员工已停用，无法接收代币',
  },
  'v.sort_invalid': {
    en: 'This list cannot be sorted that way',
    zh: '此列表不支持该排序方式',
  },
  'v.mfa_code_format': { en: 'Enter the 6-digit code', zh: '请输入 6 位验证码' },
  'v.mfa_one_code': {
    en: 'Enter either a code or a recovery code',
    zh: '请输入验证码或恢复码（二选一）',
  },
} as const;
export type ValidationMessageKey = keyof typeof VALIDATION_MESSAGES;
export const isValidationMessageKey = (value: string): value is ValidationMessageKey =>
  Object.hasOwn(VALIDATION_MESSAGES, value);

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 32;
export const CODE_MIN = 3;
export const CODE_MAX = 12;
export const EMPLOYEE_ID_MIN = 2;
export const EMPLOYEE_ID_MAX = 50;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 20;
export const RESET_DAY_MIN = 1;
export const RESET_DAY_MAX = 31;
export const INITIAL_TOKEN_MIN = 0;
export const PAGE_SIZES = [10, 20, 50] as const;
