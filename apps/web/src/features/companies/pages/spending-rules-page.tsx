import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { Label } from '@/components/ui/label';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { useAuthStore } from '@/lib/auth-store';
import { useCompanyOptions } from '../api/get-company-options';
import { SpendingRulesSection } from '../components/spending-rules-section';

/**
 * /spending-rules (DESIGN 7): a company admin's own company's rules, the section's title the
 * page's; admin and Group HR choose the company (kept in the address as `?company_id=`) and read
 * its rules under its name, as on a company's page.
 */
export function SpendingRulesPage() {
  const { t } = useTranslation();
  const id = useId();
  const ownCompany = useAuthStore((state) => state.user?.company_id ?? null);
  const [params, setParams] = useSearchParams();
  const options = useCompanyOptions({ enabled: ownCompany === null });
  const chosen = Number(params.get('company_id'));
  const companyId = ownCompany ?? (Number.isSafeInteger(chosen) && chosen > 0 ? chosen : null);
  return (
    <div className="grid gap-6">
      {ownCompany === null && <PageHeader title={t('spending_rules.nav')} />}
      {ownCompany === null && (
        <div className="grid max-w-sm gap-1.5">
          <Label htmlFor={`${id}-company`}>{t('spending_rules.section.company')}</Label>
          <Select
            value={companyId === null ? '' : String(companyId)}
            onValueChange={(value) => setParams({ company_id: value }, { replace: true })}
          >
            <SelectTrigger id={`${id}-company`} className="w-full">
              <SelectValue placeholder={t('spending_rules.section.pick_company')} />
            </SelectTrigger>
            <SelectContent>
              {options.map((option) => (
                <SelectItem key={option.value} value={option.value}>
                  {option.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      )}
      {companyId !== null ? (
        <SpendingRulesSection
          key={companyId}
          companyId={companyId}
          isPage={ownCompany !== null}
          title={
            ownCompany !== null
              ? t('spending_rules.nav')
              : options.find((option) => option.value === String(companyId))?.label
          }
        />
      ) : (
        <p className="text-sm text-muted-foreground">{t('spending_rules.section.pick_company')}</p>
      )}
    </div>
  );
}
