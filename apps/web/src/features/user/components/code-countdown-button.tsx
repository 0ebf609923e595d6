import { Button } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface CodeCountdownButtonProps {
  /** resolves true when a code went out; the button then waits a minute before the next one */
  onSend: () => Promise<boolean>;
  disabled?: boolean;
}

const WAIT_SECONDS = 60;

/** 'Get code', then a one-minute countdown: the server refuses a second code within the minute anyway. */
export function CodeCountdownButton({ onSend, disabled }: CodeCountdownButtonProps) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  async function send() {
    setSending(true);
    try {
      if (await onSend()) setLeft(WAIT_SECONDS);
    } finally {
      setSending(false);
    }
  }

  return (
    <Button size="large" onClick={() => void send()} disabled={disabled || left > 0} loading={sending} style={{ minWidth: 112 }}>
      {left > 0 ? t('register.resendIn', { seconds: String(left) }) : t('register.sendCode')}
    </Button>
  );
}
