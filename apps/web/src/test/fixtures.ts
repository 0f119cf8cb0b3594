import {
  refundStateOf,
  type Approval,
  type Company,
  type Dashboard,
  type DashboardSummary,
  type DashboardTotals,
  type ManagedUser,
  type Merchant,
  type OrderHistoryItem,
  type Role,
  type SelfUser,
  type Terminal,
} from '@app/contract';

let nextId = 1;

export function buildUser(type: Role, overrides: Partial<SelfUser> = {}): SelfUser {
  const id = nextId++;
  return {
    user_id: id,
    type,
    username: `${type}.${id}`,
    email: `${type}.${id}@example.com`,
    employee_id: `E${String(id).padStart(4, '0')}`,
    company_id: type.startsWith('company') ? 1 : null,
    merchant_id: type.startsWith('merchant') ? 1 : null,
    status: 'active',
    ...overrides,
  };
}

const stamp = '2026-01-31T14:05:00.000Z';

export function buildManagedUser(overrides: Partial<ManagedUser> = {}): ManagedUser {
  const id = nextId++;
  return {
    user_id: id,
    username: `user${id}`,
    email: `user${id}@example.com`,
    type: 'admin',
    status: 'active',
    merchant_id: null,
    merchant_name: null,
    company_id: null,
    company_name: null,
    created_at: stamp,
    updated_at: stamp,
    invitation: null,
    ...overrides,
  };
}

export function buildCompany(overrides: Partial<Company> = {}): Company {
  const id = nextId++;
  return {
    id,
    code: `CO${id}`,
    name: `Company ${id}`,
    status: 'active',
    monthly_reset_day: 1,
    init_token: 20000,
    init_token_next_month: null,
    employee_monthly_tokens: 300,
    token_balance: 1234567,
    token_month: '2026-01',
    next_reset_at: '2026-02-01T00:00:00.000Z',
    created_at: stamp,
    updated_at: stamp,
    ...overrides,
  };
}

export function buildMerchant(overrides: Partial<Merchant> = {}): Merchant {
  const id = nextId++;
  return {
    id,
    code: `M${id}`,
    name: `Merchant ${id}`,
    status: 'active',
    category: 'other',
    created_at: stamp,
    updated_at: stamp,
    ...overrides,
  };
}

export function buildTerminal(overrides: Partial<Terminal> = {}): Terminal {
  const id = nextId++;
  return {
    id,
    merchant_id: 1,
    code: `T${id}`,
    name: `Counter ${id}`,
    status: 'active',
    api_key_prefix: 'tk_abc1234',
    key_rotated_at: stamp,
    created_at: stamp,
    updated_at: stamp,
    ...overrides,
  };
}

export function buildOrder(overrides: Partial<OrderHistoryItem> = {}): OrderHistoryItem {
  const id = nextId++;
  const amounts = { subtotal: 1500, refunded_amount: 0, ...overrides };
  return {
    refund_state: refundStateOf(amounts),
    id,
    order_no: `ORD${String(id).padStart(10, '0')}`,
    status: 'ordered',
    subtotal: 1500,
    refunded_amount: 0,
    company_id: 1,
    company_code: 'ACME',
    employee_id: 'E0001',
    merchant_id: 1,
    terminal_id: 1,
    order_type: 'dine_in',
    items: [
      { name: 'Noodle soup', quantity: 2, unit_tokens: 600 },
      { name: 'Coffee', quantity: 1, unit_tokens: 300 },
    ],
    ordered_at: stamp,
    company_name: 'Acme Corporation',
    employee_internal_id: 11,
    employee_name: 'Ava Chen',
    merchant_code: 'SHOP',
    merchant_name: 'Campus Shop',
    terminal_code: 'SHOPT1',
    terminal_name: 'Counter 1',
    last_refunded_at: null,
    ...overrides,
  };
}

/** A pending distribution at ACME of 300 tokens to two people, decidable by the viewer. */
export function buildApproval(overrides: Partial<Approval> = {}): Approval {
  const kind = overrides.kind ?? 'distribution';
  return {
    id: 41,
    kind,
    status: 'pending',
    requested_by: 5,
    requested_by_username: 'acme.hr',
    company_id: 1,
    payload:
      kind === 'top_up'
        ? {
            company_id: 1,
            company_name: 'Acme Corporation',
            note: null,
            amount: overrides.total ?? 300,
          }
        : {
            company_id: 1,
            company_name: 'Acme Corporation',
            note: 'Overtime',
            items: [
              { employee_id: 11, staff_number: 'E001', name: 'Ada Lovelace', amount: 200 },
              { employee_id: 12, staff_number: 'E002', name: null, amount: 100 },
            ],
          },
    total: 300,
    created_at: '2026-01-10T10:00:00.000Z',
    expires_at: '2026-01-17T10:00:00.000Z',
    decided_by: null,
    decided_by_username: null,
    decided_at: null,
    reason: null,
    can_decide: true,
    payee_changes: [],
    ...overrides,
  };
}

/** A token month's five totals and flows, large enough to show thousands separators. */
export const DASHBOARD_TOTALS: DashboardTotals = {
  tokens_from_admin: 1234567,
  distributed_to_employees: 45000,
  consumed_by_employees: 12345,
  company_unused: 2000,
  employee_unused: 3500,
  purchased: 13000,
  refunded: 655,
};

/** GET /dashboard's answer: company 7's January 2026, one day of movements. */
export function buildDashboard(overrides: Partial<Dashboard> = {}): Dashboard {
  return {
    month: '2026-01',
    view: 'company',
    company_id: 7,
    employee_id: null,
    merchant_id: null,
    totals: DASHBOARD_TOTALS,
    window_start: '2026-01-01',
    window_end: '2026-01-31',
    counted_month: null,
    daily: [
      {
        date: '2026-01-01',
        tokens_from_admin: 1000,
        distributed_to_employees: 4000,
        consumed_by_employees: 1200,
        purchased: 1200,
        refunded: 0,
      },
    ],
    ...overrides,
  };
}

/** GET /dashboard/summary's answer: January 2026, company 7 (ACME, "Acme") alone. */
export function buildDashboardSummary(overrides: Partial<DashboardSummary> = {}): DashboardSummary {
  return {
    month: '2026-01',
    totals: DASHBOARD_TOTALS,
    companies: [
      {
        ...DASHBOARD_TOTALS,
        company_id: 7,
        company_code: 'ACME',
        company_name: 'Acme',
        company_status: 'active',
        token_month: '2026-01',
        counted_month: '2026-01',
        counted_from: '2026-01-01',
        counted_to: '2026-01-31',
      },
    ],
    ...overrides,
  };
}
