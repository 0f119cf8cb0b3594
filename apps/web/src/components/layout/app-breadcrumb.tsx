import { Fragment } from 'react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  Breadcrumb,
  BreadcrumbItem,
  BreadcrumbLink,
  BreadcrumbList,
  BreadcrumbPage,
  BreadcrumbSeparator,
} from '@/components/ui/breadcrumb';
import { paths } from '@/config/paths';
import { breadcrumbSegments, segmentLabel } from './breadcrumb-segments';

export interface AppBreadcrumbProps {
  /** Labels that replace a segment's, keyed by the segment's href (e.g. a company's name). */
  labels?: Record<string, string>;
}

/** Home, then one crumb per path part; the last one is the current page. */
export function AppBreadcrumb({ labels = {} }: AppBreadcrumbProps) {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  const segments = breadcrumbSegments(pathname);

  return (
    <Breadcrumb aria-label={t('breadcrumb.label')}>
      <BreadcrumbList>
        <BreadcrumbItem>
          {segments.length === 0 ? (
            <BreadcrumbPage>{t('breadcrumb.home')}</BreadcrumbPage>
          ) : (
            <BreadcrumbLink asChild>
              <Link to={paths.home.getHref()}>{t('breadcrumb.home')}</Link>
            </BreadcrumbLink>
          )}
        </BreadcrumbItem>
        {segments.map(({ segment, href }, index) => {
          const label = labels[href] ?? segmentLabel(segment, i18n);
          const isLast = index === segments.length - 1;
          return (
            <Fragment key={href}>
              <BreadcrumbSeparator />
              <BreadcrumbItem>
                {isLast ? (
                  <BreadcrumbPage>{label}</BreadcrumbPage>
                ) : (
                  <BreadcrumbLink asChild>
                    <Link to={href}>{label}</Link>
                  </BreadcrumbLink>
                )}
              </BreadcrumbItem>
            </Fragment>
          );
        })}
      </BreadcrumbList>
    </Breadcrumb>
  );
}
