/** The trade-in form's controls as TradeInControl.astro renders them (the form kit's markup). */
export type Choice = { value: string; label: string; hint?: string };
export type Control =
  | {
      kind: 'select';
      name: string;
      id: string;
      label: string;
      placeholder: string;
      choices: readonly (string | Choice)[];
      autocomplete?: string;
    }
  | {
      kind: 'text';
      name: string;
      id: string;
      label: string;
      type?: 'text' | 'tel' | 'email';
      placeholder?: string;
      autocomplete?: string;
      inputmode?: 'tel' | 'email';
      maxlength?: number;
      required?: boolean;
    }
  | { kind: 'radios'; name: string; id: string; label: string; choices: readonly Choice[]; inline?: boolean };
