import { Navigate, useParams } from 'react-router';
import { paths } from '@/config/paths';

/** /settlements/:merchantId (a statement's breadcrumb): that merchant's statements in the list. */
export function Component() {
  const { merchantId = '' } = useParams();
  const id = Number(merchantId);
  const valid = Number.isSafeInteger(id) && id > 0;
  return (
    <Navigate
      to={valid ? paths.settlements.getHref({ merchant_id: id }) : paths.errors.notFound.getHref()}
      replace
    />
  );
}
