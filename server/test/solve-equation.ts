/** Evaluates a challenge equation as the overlay shows it: integers, + - × ÷ and parentheses. */
export function solve(equation: string): number {
  const tokens = equation.match(/\d+|[-+×÷()]/g) ?? [];
  let i = 0;
  const primary = (): number => {
    const t = tokens[i++];
    if (t === "(") {
      const v = sum();
      i++;
      return v;
    }
    return Number(t);
  };
  const product = (): number => {
    let v = primary();
    while (tokens[i] === "×" || tokens[i] === "÷") v = tokens[i++] === "×" ? v * primary() : v / primary();
    return v;
  };
  const sum = (): number => {
    let v = product();
    while (tokens[i] === "+" || tokens[i] === "-") v = tokens[i++] === "+" ? v + product() : v - product();
    return v;
  };
  return sum();
}
