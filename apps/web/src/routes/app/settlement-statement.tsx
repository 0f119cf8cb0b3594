import { Navigate, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { SettlementStatementPage } from '@/features/settlements/pages/settlement-statement-page';

/** /settlements/:merchantId/:periodStart: one statement; a malformed address is not found. */
export function Component() {
  const { merchantId = '', periodStart = '' } = useParams();
  const id = Number(merchantId);
  if (!(Number.isSafeInteger(id) && id > 0) || !/^\d{4}-\d{2}-(01|16)$/.test(periodStart)) {
    return <Navigate to={paths.errors.notFound.getHref()} replace />;
  }
  return (
    <SettlementStatementPage
      key={`${id}/${periodStart}`}
      merchantId={id}
      periodStart={periodStart}
    />
  );
}
