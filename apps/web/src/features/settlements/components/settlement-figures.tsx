import { useTranslation } from 'react-i18next';
import type { SettlementFigures as Figures } from '@app/contract';
import { Tokens } from '@/components/data-table';
import { FigureCards } from '@/components/layout/detail-layout';

/** Orders, purchased, refunded and net tokens as the screen's figure cards. */
export function SettlementFigures({ figures, label }: { figures: Figures; label: string }) {
  const { t } = useTranslation();
  return (
    <FigureCards
      label={label}
      figures={[
        { id: 'orders', label: t('settlements.orders'), value: figures.orders },
        {
          id: 'purchased',
          label: t('settlements.purchased'),
          value: <Tokens value={figures.purchased_tokens} />,
        },
        {
          id: 'refunded',
          label: t('settlements.refunded'),
          value: <Tokens value={figures.refunded_tokens} />,
        },
        { id: 'net', label: t('settlements.net'), value: <Tokens value={figures.net_tokens} /> },
      ]}
    />
  );
}
