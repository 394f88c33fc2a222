/** Time left until `due` from `now`: "4 days 3 hours left", "2 hours 5 minutes left", or "past due". */
export function timeLeft(due: string, now: string): string {
  const ms = Date.parse(due) - Date.parse(now);
  if (!(ms > 0)) return "past due";
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (days > 0) return `${plural(days, "day")} ${plural(hours, "hour")} left`;
  return `${plural(hours, "hour")} ${plural(minutes % 60, "minute")} left`;
}
