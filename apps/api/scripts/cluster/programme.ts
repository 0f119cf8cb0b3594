// The programme the cluster run works on, built through the services as the API would build it:
// a company whose employees order at one terminal, and a second company whose monthly reset the
// test makes due in the middle of the failover.
import { loadConfig } from '../../src/config';
import { createDatabase } from '../../src/db/client';
import { AppState } from '../../src/lib/app-state';
import { systemClock } from '../../src/lib/clock';
import type { ServiceDeps } from '../../src/lib/deps';
import { createCompany } from '../../src/modules/companies';
import { createEmployee } from '../../src/modules/employees';
import { createMerchant } from '../../src/modules/merchants';
import { createTerminal } from '../../src/modules/terminals';
import { distributeToEmployees, issueToCompany } from '../../src/modules/tokens';

export interface Programme {
  companyCode: string;
  companyId: number;
  staffNumbers: string[];
  /** What each ordering employee holds at the start. */
  tokensEach: number;
  terminalKey: string;
  terminalId: number;
  /** The company whose reset falls during the failover. */
  resetCompanyId: number;
  resetEmployees: number;
}

const EMPLOYEES = 8;
const TOKENS_EACH = 100_000;
const RESET_EMPLOYEES = 5;

export async function createProgramme(url: string): Promise<Programme> {
  const config = loadConfig({ DATABASE_URL: url, DEMO_DATA: 'false', MFA_REQUIRED_ROLES: 'none' });
  const database = await createDatabase({ url, poolSize: 2 });
  const deps: ServiceDeps = { config, database, clock: systemClock, state: new AppState() };
  try {
    const company = await createCompany(deps, null, {
      code: 'HAORDERS',
      name: 'HA test: orders',
      monthly_reset_day: 1,
      init_token: 0,
    });
    await issueToCompany(deps, null, { company_id: company.id, amount: EMPLOYEES * TOKENS_EACH });
    const staffNumbers: string[] = [];
    const items: { employee_id: number; amount: number }[] = [];
    for (let i = 1; i <= EMPLOYEES; i += 1) {
      const staffNumber = `HA${String(i).padStart(3, '0')}`;
      const employee = await createEmployee(
        deps,
        { kind: 'company', companyId: company.id },
        { employee_id: staffNumber, status: 'active', monthly_tokens: null },
      );
      staffNumbers.push(staffNumber);
      items.push({ employee_id: employee.id, amount: TOKENS_EACH });
    }
    await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, { items });

    const merchant = await createMerchant(deps, { code: 'HASHOP', name: 'HA test shop' });
    const terminal = await createTerminal(deps, {
      merchant_id: merchant.id,
      code: 'HATILL',
      name: 'HA test till',
    });

    const resetting = await createCompany(deps, null, {
      code: 'HARESET',
      name: 'HA test: reset during failover',
      monthly_reset_day: 1,
      init_token: 1_000,
      employee_monthly_tokens: 10,
    });
    await issueToCompany(deps, null, { company_id: resetting.id, amount: 500 });
    const resetItems: { employee_id: number; amount: number }[] = [];
    for (let i = 1; i <= RESET_EMPLOYEES; i += 1) {
      const employee = await createEmployee(
        deps,
        { kind: 'company', companyId: resetting.id },
        { employee_id: `HR${i}`, status: 'active', monthly_tokens: null },
      );
      resetItems.push({ employee_id: employee.id, amount: 20 });
    }
    await distributeToEmployees(deps, { kind: 'company', companyId: resetting.id }, null, {
      items: resetItems,
    });
    return {
      companyCode: company.code,
      companyId: company.id,
      staffNumbers,
      tokensEach: TOKENS_EACH,
      terminalKey: terminal.api_key,
      terminalId: terminal.id,
      resetCompanyId: resetting.id,
      resetEmployees: RESET_EMPLOYEES,
    };
  } finally {
    await database.close();
  }
}
