import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { MerchantDetailPage } from '@/features/merchants/pages/merchant-detail-page';
import { OrdersLedger } from '@/features/order-history/components/orders-ledger';

/** /merchants/:merchantId: the merchant with its orders. */
export function Component() {
  const { t } = useTranslation();
  const { merchantId = '' } = useParams();
  const id = Number(merchantId);
  return (
    <MerchantDetailPage
      key={merchantId}
      merchantId={merchantId}
      orders={
        Number.isSafeInteger(id) && id > 0 ? (
          <OrdersLedger merchantId={id} label={t('detail.orders')} />
        ) : null
      }
    />
  );
}
