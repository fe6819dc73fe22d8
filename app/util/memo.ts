/**
 * A small bounded memo by string key, the oldest forgotten past `max`: for work that repeats on the same few strings
 * (building a Unicode pattern or an Intl object costs far more than using one). Runs on the server and in the browser.
 */
export function memo<T>(max: number, compute: (key: string) => T): (key: string) => T {
  const values = new Map<string, T>();
  return (key) => {
    if (values.has(key)) return values.get(key)!;
    const value = compute(key);
    if (values.size >= max) values.delete(values.keys().next().value!);
    values.set(key, value);
    return value;
  };
}
