/** A file's text as an earlier step read it (what summaries, briefs and reviews are built from). */
export interface SourceText {
  file: string;
  text: string;
  /** True when the step that read it quoted only the start (the executor's quote limit). */
  cut?: boolean;
}
