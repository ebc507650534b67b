/**
 * ES2024 string methods that Node 20 has but the project's `lib` (ES2023) does not declare.
 */
interface String {
  /** True when the string has no lone UTF-16 surrogate. */
  isWellFormed(): boolean;
  /** A copy with every lone UTF-16 surrogate replaced by U+FFFD. */
  toWellFormed(): string;
}
