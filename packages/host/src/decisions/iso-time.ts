/**
 * `Date#toISOString` by arithmetic (days to civil date, Howard Hinnant's algorithm): the first `Date`
 * a process makes loads its time zone data, milliseconds of a hook process that otherwise needs none.
 */
export function isoTime(epochMs: number): string {
  const whole = Math.floor(epochMs);
  const days = Math.floor(whole / 86_400_000);
  const inDay = whole - days * 86_400_000;
  if (days !== cachedDays) {
    cachedDays = days;
    cachedDate = civilDate(days);
  }
  return `${cachedDate}T${two(Math.floor(inDay / 3_600_000))}:${two(Math.floor(inDay / 60_000) % 60)}:${two(Math.floor(inDay / 1000) % 60)}.${three(inDay % 1000)}Z`;
}

// Records come in bursts within one day: the date part is worked out once per day.
let cachedDays: number | undefined;
let cachedDate = "";

/** `YYYY-MM-DD` of a day counted from 1970-01-01. */
function civilDate(days: number): string {
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, "0")}-${two(month)}-${two(day)}`;
}

function two(value: number): string {
  return value < 10 ? `0${value}` : `${value}`;
}

function three(value: number): string {
  return value < 10 ? `00${value}` : value < 100 ? `0${value}` : `${value}`;
}
