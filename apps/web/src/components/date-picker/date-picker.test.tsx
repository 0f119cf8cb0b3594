import { useState } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatDayLong } from '@/lib/format';
import { i18n } from '@/locales/i18n';
import { DateField } from './date-field';
import { DateRangePicker, type DayRange, type RangePreset } from './date-range-picker';
import { MonthPicker } from './month-picker';
import { parseDate } from './parse-date';

function Field({ initial = '', onChange }: { initial?: string; onChange: (day: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <label htmlFor="day">Day</label>
      <DateField
        id="day"
        value={value}
        onChange={(day) => {
          setValue(day);
          onChange(day);
        }}
      />
      <output data-testid="value">{value}</output>
    </>
  );
}

// The calendar is a lazy chunk; compile it once here rather than inside the test that opens it.
beforeAll(() => import('@/components/ui/calendar'), 60_000);

afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
});

describe('one date system: the text and the field write a day the same way', () => {
  it('reads a day in each language’s own format, and nothing else', () => {
    expect(parseDate('01/12/2026', 'en')).toBe('2026-12-01');
    expect(parseDate('1/12/2026', 'en')).toBe('2026-12-01');
    expect(parseDate('2026-12-01', 'en')).toBe('2026-12-01');
    expect(parseDate('2026-12-01', 'zh')).toBe('2026-12-01');
    expect(parseDate('2026年12月1日', 'zh')).toBe('2026-12-01');
    // The US order a native input showed, and days the calendar lacks, are not days.
    expect(parseDate('12/31/2026', 'en')).toBeNull();
    expect(parseDate('31/02/2026', 'en')).toBeNull();
    expect(parseDate('01/12/2026', 'zh')).toBeNull();
    expect(parseDate('soon', 'en')).toBeNull();
  });

  it('says a day that moves tokens in words, with its weekday', () => {
    expect(formatDayLong('2026-12-01', 'en')).toBe('Tuesday 1 December 2026');
    expect(formatDayLong('2026-12-01', 'zh')).toBe('2026年12月1日星期二');
  });
});

describe('DateField', () => {
  it('shows the day as DD/MM/YYYY in English and reads a typed one on Enter', async () => {
    const onChange = vi.fn();
    render(<Field initial="2026-12-01" onChange={onChange} />);
    const box = screen.getByRole('textbox', { name: 'Day' });
    expect(box).toHaveValue('01/12/2026');
    expect(box).toHaveAccessibleDescription('Type the date as DD/MM/YYYY.');

    await userEvent.clear(box);
    await userEvent.type(box, '15/1/2027{Enter}');
    expect(onChange).toHaveBeenLastCalledWith('2027-01-15');
    expect(box).toHaveValue('15/01/2027');
  });

  it('shows and reads YYYY-MM-DD in Chinese', async () => {
    await act(() => i18n.changeLanguage('zh'));
    const onChange = vi.fn();
    render(<Field initial="2026-12-01" onChange={onChange} />);
    const box = screen.getByRole('textbox', { name: 'Day' });
    expect(box).toHaveValue('2026-12-01');
    await userEvent.clear(box);
    await userEvent.type(box, '2027-01-15');
    await userEvent.tab();
    expect(onChange).toHaveBeenLastCalledWith('2027-01-15');
  });

  it('keeps text that is no day, marks it invalid with the format, and sends nothing', async () => {
    const onChange = vi.fn();
    render(<Field initial="2026-12-01" onChange={onChange} />);
    const box = screen.getByRole('textbox', { name: 'Day' });
    await userEvent.clear(box);
    await userEvent.type(box, '12/31/2026{Enter}');
    expect(onChange).not.toHaveBeenCalled();
    expect(box).toHaveValue('12/31/2026');
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent('Enter a date as DD/MM/YYYY');
    expect(screen.getByTestId('value')).toHaveTextContent('2026-12-01');
  });

  it('picks a day in the calendar, which loads when first opened', async () => {
    const onChange = vi.fn();
    render(<Field initial="2026-12-01" onChange={onChange} />);
    await userEvent.click(screen.getByRole('button', { name: 'Choose a date in a calendar' }));
    const grid = await screen.findByRole('grid', {}, { timeout: 10_000 });
    // Weeks start on Monday: December 2026 opens on Monday 30 November.
    expect(within(grid).getAllByRole('gridcell')[0]).toHaveAttribute('data-day', '2026-11-30');
    await userEvent.click(
      within(grid).getByRole('button', { name: /15 December 2026|December 15/ }),
    );
    expect(onChange).toHaveBeenLastCalledWith('2026-12-15');
    await waitFor(() => expect(screen.queryByRole('grid')).not.toBeInTheDocument());
    expect(screen.getByRole('textbox', { name: 'Day' })).toHaveValue('15/12/2026');
  });
});

describe('DateRangePicker', () => {
  function Range({
    presets,
    onChange,
  }: {
    presets: RangePreset[];
    onChange: (r: DayRange) => void;
  }) {
    const [value, setValue] = useState<DayRange>({});
    return (
      <DateRangePicker
        label="Date"
        value={value}
        presets={presets}
        onChange={(range) => {
          setValue(range);
          onChange(range);
        }}
      />
    );
  }

  it('applies a preset, says the range in the language’s format, and clears it', async () => {
    const onChange = vi.fn();
    const tokenMonth = vi.fn(async () => ({ from: '2026-11-15', to: '2026-12-14' }));
    render(
      <Range
        onChange={onChange}
        presets={[{ id: 'this_token_month', label: 'This token month', range: tokenMonth }]}
      />,
    );
    const trigger = screen.getByTestId('date-range-trigger');
    expect(trigger).toHaveTextContent('Date:Any date');
    await userEvent.click(trigger);
    await userEvent.click(screen.getByRole('button', { name: 'This token month' }));
    await waitFor(() =>
      expect(onChange).toHaveBeenLastCalledWith({ from: '2026-11-15', to: '2026-12-14' }),
    );
    expect(trigger).toHaveTextContent('15/11/2026 – 14/12/2026');

    await userEvent.click(screen.getByRole('button', { name: 'Clear Date' }));
    expect(onChange).toHaveBeenLastCalledWith({});
  });

  it('takes typed ends in the same format', async () => {
    const onChange = vi.fn();
    render(<Range onChange={onChange} presets={[]} />);
    await userEvent.click(screen.getByTestId('date-range-trigger'));
    await userEvent.type(screen.getByRole('textbox', { name: 'From' }), '01/11/2026{Enter}');
    expect(onChange).toHaveBeenLastCalledWith({ from: '2026-11-01', to: undefined });
    await userEvent.type(screen.getByRole('textbox', { name: 'To' }), '30/11/2026{Enter}');
    expect(onChange).toHaveBeenLastCalledWith({ from: '2026-11-01', to: '2026-11-30' });
  });
});

describe('MonthPicker', () => {
  it('names the month in words and picks another, or the last month, or the default', async () => {
    const onChange = vi.fn();
    render(
      <MonthPicker label="Month" value={undefined} shownMonth="2026-11" onChange={onChange} />,
    );
    const trigger = () => screen.getByRole('button', { name: 'Month: November 2026' });
    // The popover's code comes on the first click (decision 0037); the button stays.
    expect(trigger()).not.toHaveAttribute('aria-haspopup');
    await userEvent.click(trigger());
    await userEvent.click(await screen.findByRole('button', { name: 'Previous year' }));
    expect(trigger()).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'March 2025' }));
    expect(onChange).toHaveBeenLastCalledWith('2025-03');

    await userEvent.click(trigger());
    await userEvent.click(screen.getByRole('button', { name: 'Last month' }));
    expect(onChange).toHaveBeenLastCalledWith('2026-10');

    await userEvent.click(trigger());
    await userEvent.click(screen.getByRole('button', { name: 'This token month' }));
    expect(onChange).toHaveBeenLastCalledWith(undefined);
  });

  it('speaks Chinese in Chinese', async () => {
    await act(() => i18n.changeLanguage('zh'));
    render(<MonthPicker label="月份" value="2026-11" shownMonth="2026-11" onChange={() => {}} />);
    expect(screen.getByRole('button', { name: '月份: 2026年11月' })).toBeInTheDocument();
  });
});
