import { useSearchParams } from 'react-router';
import { HolidaysPage } from '@/features/holidays/pages/holidays-page';

/** The year of the URL (`?year=`), this year when absent or out of the API's range. */
export function yearOf(text: string | null, thisYear = new Date().getFullYear()): number {
  const year = Number(text);
  return /^\d{4}$/.test(text ?? '') && year >= 2000 && year <= 2100 ? year : thisYear;
}

/** /holidays?year= (admin): the holiday calendar of one year. */
export function Component() {
  const [search, setSearch] = useSearchParams();
  const year = yearOf(search.get('year'));
  return (
    <HolidaysPage
      year={year}
      onYear={(next) => setSearch(next === new Date().getFullYear() ? {} : { year: String(next) })}
    />
  );
}
