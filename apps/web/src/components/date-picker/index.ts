export { DateField, type DateFieldProps } from './date-field';
export {
  calendarPresets,
  DateRangePicker,
  type DayRange,
  type RangePreset,
} from './date-range-picker';
export { MonthPicker, previousMonth } from './month-picker';
