import { useId, useState } from 'react';
import './pro-forma-button.css';

/** What making the document came to: a text to tell, as news or as an error. */
export type ProFormaResult = { ok: boolean; text: string };

type Making = { state: 'idle' } | { state: 'preparing' } | ({ state: 'done' } & ProFormaResult);

export interface ProFormaButtonProps {
  /** The languages the document can be made in, each with its name in its own language. */
  languages: readonly { value: string; label: string }[];
  /** The language chosen at first. */
  initialLanguage: string;
  labels: { language: string; make: string; preparing: string };
  /** Makes the document in `language` and says how it went. */
  onMake: (language: string) => Promise<ProFormaResult>;
  className?: string | undefined;
}

/**
 * "Pro-forma (PDF)" with the choice of its language beside it: busy while the document is
 * made, then what came of it (a status, or an alert when it failed).
 */
export function ProFormaButton({
  languages,
  initialLanguage,
  labels,
  onMake,
  className,
}: ProFormaButtonProps) {
  const [language, setLanguage] = useState(initialLanguage);
  const [making, setMaking] = useState<Making>({ state: 'idle' });
  const languageId = useId();
  const preparing = making.state === 'preparing';

  const make = async () => {
    setMaking({ state: 'preparing' });
    setMaking({ state: 'done', ...(await onMake(language)) });
  };

  return (
    <div className={`card__actions pro-forma${className ? ` ${className}` : ''}`}>
      <label htmlFor={languageId}>{labels.language}</label>
      <select
        id={languageId}
        value={language}
        disabled={preparing}
        onChange={(event) => setLanguage(event.target.value)}
      >
        {languages.map(({ value, label }) => (
          <option key={value} value={value} lang={value}>
            {label}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="button button--ghost"
        disabled={preparing}
        aria-busy={preparing}
        onClick={() => void make()}
      >
        {preparing ? labels.preparing : labels.make}
      </button>
      <p className="hint" role="status">
        {making.state === 'done' && making.ok ? making.text : ''}
      </p>
      {making.state === 'done' && !making.ok && (
        <p className="form-field__error" role="alert">
          {making.text}
        </p>
      )}
    </div>
  );
}
