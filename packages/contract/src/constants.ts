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
 * Field messages of spec 5, in one voice (decision 0026). Schemas carry the key (`v.*`), or the
 * key with the values its text names (`v.text_max?max=200`, see `validationMessage`); the API
 * renders it in the caller's language for `metadata`, the web app translates it in forms. One
 * wording, both places. Every message either says what to do ("Enter a …", "Choose a …") or
 * states the rule ("… must be at most N characters"); in Chinese 请输入/请选择, or 须/至少/最多/
 * 只能/不能. The one exception is spec 5's own 'Total tokens exceed available limit!'.
 */
export const VALIDATION_MESSAGES = {
  // Anything the form did not get, and any value no rule below names (the error map's fallbacks).
  'v.required': { en: 'Fill in this field', zh: '请填写此项' },
  'v.invalid': { en: 'Enter a valid value', zh: '请输入有效的值' },
  'v.url': { en: 'Enter a web address (https://…)', zh: '请输入网址（https://…）' },
  'v.text_min': {
    en: 'Enter at least {{min}} characters',
    zh: '请至少输入 {{min}} 个字符',
  },
  'v.text_max': {
    en: 'Enter at most {{max}} characters',
    zh: '最多只能输入 {{max}} 个字符',
  },
  'v.number_min': { en: 'Enter a number of at least {{min}}', zh: '请输入不小于 {{min}} 的数字' },
  'v.number_max': { en: 'Enter a number of at most {{max}}', zh: '请输入不大于 {{max}} 的数字' },
  'v.choose_option': { en: 'Choose one of the options offered', zh: '请选择提供的选项之一' },
  'v.code_required': { en: 'Enter a code', zh: '请输入编码' },
  'v.code_length': { en: 'Code must be 3 to 12 characters', zh: '编码须为 3 至 12 个字符' },
  'v.code_chars': {
    en: 'Code may contain only letters and numbers',
    zh: '编码只能包含字母和数字',
  },
  'v.name_required': { en: 'Enter a name', zh: '请输入名称' },
  'v.name_max': { en: 'Name must be at most 200 characters', zh: '名称最多 200 个字符' },
  'v.note_max': { en: 'Note must be at most 500 characters', zh: '备注最多 500 个字符' },
  // SCIM tokens (decision 0087).
  'v.description_required': { en: 'Enter a description', zh: '请输入描述' },
  'v.description_max': {
    en: 'Description must be at most 200 characters',
    zh: '描述最多 200 个字符',
  },
  'v.employee_id_required': { en: 'Enter an employee ID', zh: '请输入员工编号' },
  'v.employee_id_min': {
    en: 'Employee ID must be at least 2 characters',
    zh: '员工编号至少 2 个字符',
  },
  'v.employee_id_max': {
    en: 'Employee ID must be at most 50 characters',
    zh: '员工编号最多 50 个字符',
  },
  'v.username_required': { en: 'Enter a username', zh: '请输入用户名' },
  'v.login_required': { en: 'Enter your username or email', zh: '请输入用户名或邮箱' },
  'v.username_length': {
    en: 'Username must be 3 to 20 characters',
    zh: '用户名须为 3 至 20 个字符',
  },
  'v.username_chars': {
    en: 'Username may contain only letters, numbers, underscores and dots',
    zh: '用户名只能包含字母、数字、下划线和点',
  },
  'v.identifier_chars': {
    en: 'Remove invisible, control or text-direction characters',
    zh: '请删除不可见字符、控制字符或文字方向字符',
  },
  'v.password_required': { en: 'Enter a password', zh: '请输入密码' },
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
  'v.password_match': { en: 'Passwords must match', zh: '两次输入的密码须一致' },
  'v.current_password_required': {
    en: 'Enter your current password to set a new one',
    zh: '请输入当前密码后再设置新密码',
  },
  'v.current_password_invalid': {
    en: 'Enter the password you sign in with now',
    zh: '请输入您当前登录所用的密码',
  },
  'v.email_required': { en: 'Enter an email address', zh: '请输入邮箱地址' },
  'v.email_invalid': { en: 'Enter a valid email address', zh: '请输入有效的邮箱地址' },
  'v.email_domain': {
    en: 'Enter email domains such as example.com',
    zh: '请输入邮箱域名，例如 example.com',
  },
  'v.amount_required': { en: 'Enter an amount', zh: '请输入数量' },
  'v.initial_token_min': { en: 'Initial token must be at least 0', zh: '初始代币不能小于 0' },
  'v.reset_day_required': { en: 'Enter a reset day', zh: '请输入重置日' },
  'v.reset_day_range': { en: 'Reset day must be between 1 and 31', zh: '重置日须在 1 至 31 之间' },
  'v.status_required': { en: 'Choose a status', zh: '请选择状态' },
  'v.company_required': { en: 'Choose a company', zh: '请选择公司' },
  'v.integer': { en: 'Enter a whole number', zh: '请输入整数' },
  'v.amount_positive': { en: 'Amount must be greater than 0', zh: '数量须大于 0' },
  'v.tokens_min_one': {
    en: 'Enter an amount for at least one employee',
    zh: '请至少为一名员工输入数量',
  },
  // Spec 5 quotes this one; it keeps its words.
  'v.tokens_exceed': { en: 'Total tokens exceed available limit!', zh: '代币总数超出可用额度！' },
  'v.file_required': { en: 'Choose a file', zh: '请选择文件' },
  'v.type_required': { en: 'Choose a user type', zh: '请选择用户类型' },
  'v.type_invalid': {
    en: 'Choose one of the user types offered',
    zh: '请选择提供的用户类型之一',
  },
  'v.merchant_required': { en: 'Choose a merchant', zh: '请选择商户' },
  'v.merchant_not_allowed': {
    en: 'Merchant must be left out for this user type',
    zh: '此用户类型不能指定商户',
  },
  'v.date_required': { en: 'Enter a date', zh: '请输入日期' },
  'v.date_invalid': { en: 'Enter a valid date (YYYY-MM-DD)', zh: '请输入有效日期（YYYY-MM-DD）' },
  'v.date_format': { en: 'Enter a date as {{format}}', zh: '请按 {{format}} 格式输入日期' },
  'v.reset_date_future': {
    en: 'Reset date must be after today',
    zh: '重置日期须晚于今天',
  },
  'v.unknown_field': { en: 'Remove this field', zh: '请删除此字段' },
  'v.duplicate_in_file': {
    en: 'This value must appear only once in the file',
    zh: '该值在文件中只能出现一次',
  },
  'v.template_example': {
    en: "Remove the template's example row, or replace it with an employee",
    zh: '请删除模板中的示例行，或将其替换为员工信息',
  },
  // Issue 14: messages that say what is wrong with a date, a cursor, a number or an upload.
  'v.date_not_in_calendar': {
    en: 'Enter a day that exists in the calendar',
    zh: '请输入日历中存在的日期',
  },
  'v.year_range': {
    en: 'Year must be between 1970 and 9999',
    zh: '年份须在 1970 至 9999 之间',
  },
  'v.month_invalid': { en: 'Enter a valid month (YYYY-MM)', zh: '请输入有效月份（YYYY-MM）' },
  'v.date_order': {
    en: 'End date must be on or after the start date',
    zh: '结束日期不能早于开始日期',
  },
  // Spending rules (DESIGN 7, issue 42).
  'v.time_format': {
    en: 'Enter a time as HH:mm (00:00 to 23:59)',
    zh: '请按 HH:mm 输入时间（00:00 至 23:59）',
  },
  'v.time_order': { en: 'The end must be after the start', zh: '结束时间须晚于开始时间' },
  'v.effective_from_past': {
    en: 'Choose today or a later date: a new version cannot change the past',
    zh: '新版本的生效日期须为今天或以后',
  },
  'v.holiday_duplicate': {
    en: 'Remove this date: it is listed twice',
    zh: '请删除此日期：它重复出现',
  },
  // Pay codes (DESIGN 8, issue 43).
  'v.pay_code_format': {
    en: 'Enter the 18 digits of the pay code',
    zh: '请输入 18 位付款码',
  },
  'v.pay_code_or_payee': {
    en: 'Enter a pay code, or a company code and a staff number',
    zh: '请提供付款码，或公司代码和员工编号',
  },
  'v.device_name_max': { en: 'Name must be at most 100 characters', zh: '名称最多 100 个字符' },
  'v.holiday_name_max': { en: 'Name must be at most 100 characters', zh: '名称最多 100 个字符' },
  'v.settlement_range': {
    en: 'Choose at most 24 months of settlement periods',
    zh: '结算周期最多可选 24 个月',
  },
  'v.settlement_period_start': {
    en: 'Choose a period that starts on the 1st or the 16th of a month',
    zh: '请选择从每月 1 日或 16 日开始的结算周期',
  },
  'v.cursor_invalid': {
    en: 'Start again from the first page: this page position is invalid or was altered',
    zh: '请从第一页重新开始：分页位置无效或已被更改',
  },
  'v.number_invalid': { en: 'Enter a number', zh: '请输入数字' },
  'v.number_range': {
    en: 'Enter a whole number in the allowed range',
    zh: '请输入允许范围内的整数',
  },
  'v.amount_too_large': {
    en: 'Amount must be at most 9,007,199,254,740,991',
    zh: '数量最多为 9,007,199,254,740,991',
  },
  'v.subtotal_too_large': {
    en: 'Order total must be at most 9,007,199,254,740,991',
    zh: '订单总额最多为 9,007,199,254,740,991',
  },
  'v.balance_cap': {
    en: 'Balance must stay at most 9,007,199,254,740,991, the most a wallet can hold',
    zh: '余额最多为 9,007,199,254,740,991（钱包可持有的上限）',
  },
  'v.json_invalid': { en: 'Request body must be valid JSON', zh: '请求内容须为有效的 JSON' },
  'v.too_many_files': { en: 'Upload one file at a time', zh: '请一次只上传一个文件' },
  'v.cell_too_long': {
    en: 'Each cell must be at most 1,000 characters',
    zh: '每个单元格最多 1,000 个字符',
  },
  'v.too_many_columns': {
    en: 'Each row must have at most 50 columns',
    zh: '每行最多 50 列',
  },
  'v.employee_not_found': {
    en: 'Enter the Employee ID of an employee of this company',
    zh: '请输入本公司员工的员工编号',
  },
  'v.employee_inactive': {
    en: 'Employee must be active to receive tokens',
    zh: '员工须为启用状态才能接收代币',
  },
  'v.sort_invalid': {
    en: 'Choose a sort this list offers',
    zh: '请选择此列表支持的排序方式',
  },
  'v.mfa_code_format': { en: 'Enter the 6-digit code', zh: '请输入 6 位验证码' },
  'v.mfa_one_code': {
    en: 'Enter either a code or a recovery code',
    zh: '请输入验证码或恢复码（二选一）',
  },
  'v.recovery_code_required': { en: 'Enter a recovery code', zh: '请输入恢复码' },
  'v.code_or_recovery_required': {
    en: 'Enter a code or a recovery code',
    zh: '请输入验证码或恢复码',
  },
} as const;
export type ValidationMessageKey = keyof typeof VALIDATION_MESSAGES;
export const isValidationMessageKey = (value: string): value is ValidationMessageKey =>
  Object.hasOwn(VALIDATION_MESSAGES, value);

/** The values a message's text names (`{{max}}`), by placeholder. */
export type ValidationValues = Readonly<Record<string, string | number>>;

/**
 * A message as a schema carries it: the key, with the values its text names after a `?`
 * (`v.text_max?max=200`), so the number reaches whichever side translates it.
 */
export function validationMessage(key: ValidationMessageKey, values?: ValidationValues): string {
  if (!values || Object.keys(values).length === 0) return key;
  const query = Object.entries(values)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join('&');
  return `${key}?${query}`;
}

/** The key and values of a message `validationMessage` wrote; null for any other text. */
export function parseValidationMessage(
  message: string,
): { key: ValidationMessageKey; values: Record<string, string> } | null {
  const at = message.indexOf('?');
  const key = at < 0 ? message : message.slice(0, at);
  if (!isValidationMessageKey(key)) return null;
  const values: Record<string, string> = {};
  if (at >= 0) {
    for (const pair of message.slice(at + 1).split('&')) {
      const [name = '', value = ''] = pair.split('=');
      if (name) values[decodeURIComponent(name)] = decodeURIComponent(value);
    }
  }
  return { key, values };
}

/** A schema's message in `lang`, its values filled in; any other text is returned as it is. */
export function renderValidationMessage(message: string, lang: 'en' | 'zh'): string {
  const parsed = parseValidationMessage(message);
  if (!parsed) return message;
  return VALIDATION_MESSAGES[parsed.key][lang].replace(
    /\{\{(\w+)\}\}/g,
    (placeholder, name: string) => parsed.values[name] ?? placeholder,
  );
}

/** The sign-in form's limits (loginBodySchema): generous, the password rules apply elsewhere. */
export const LOGIN_USERNAME_MAX = 254;
export const LOGIN_PASSWORD_MAX = 256;

/**
 * The sign-in form's check without the schema library, for the first load of /login (decision
 * 0026): the messages loginBodySchema gives, by field. A test holds the two to the same answers.
 */
export function loginFieldErrors(body: {
  username: string;
  password: string;
}): Partial<Record<'username' | 'password', string>> {
  const errors: Partial<Record<'username' | 'password', string>> = {};
  const username = body.username.trim();
  if (username === '') errors.username = 'v.login_required';
  else if (username.length > LOGIN_USERNAME_MAX) {
    errors.username = validationMessage('v.text_max', { max: LOGIN_USERNAME_MAX });
  }
  if (body.password === '') errors.password = 'v.password_required';
  else if (body.password.length > LOGIN_PASSWORD_MAX) {
    errors.password = validationMessage('v.text_max', { max: LOGIN_PASSWORD_MAX });
  }
  return errors;
}

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
