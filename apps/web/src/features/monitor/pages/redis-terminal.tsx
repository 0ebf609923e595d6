import { MonitorPerm, RedisTerminalCommands } from '@isps/contract';
import { Alert, Button, Card, Flex, Input, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../../shared/permission/index.ts';
import { runRedisCommand, useRedisCommand } from '../api/monitor-queries.ts';
import { MonitorFailed } from '../components/monitor-frame.tsx';
import styles from '../components/monitor.module.css';

interface Line {
  id: number;
  command: string;
  output: string;
  refused: boolean;
}

/**
 * A Redis terminal of read-only commands (an allow-list; the server refuses every other one, naming it). Running
 * needs monitor:redisTerminal:execute; without Redis the screen says so instead of a prompt.
 */
export default function RedisTerminalPage() {
  const { t } = useTranslation();
  const canRun = usePermission(MonitorPerm.redisExecute);
  const run = useRedisCommand();
  const [command, setCommand] = useState('');
  const [lines, setLines] = useState<Line[]>([]);
  const [unavailable, setUnavailable] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const next = useRef(0);
  const output = useRef<HTMLPreElement>(null);

  // a first PING tells whether Redis is there (configured and answering)
  useEffect(() => {
    if (!canRun) return;
    let live = true;
    runRedisCommand('PING').then(
      () => live && setReady(true),
      (error: Error) => live && setUnavailable(error.message),
    );
    return () => {
      live = false;
    };
  }, [canRun]);

  useEffect(() => {
    const shown = output.current;
    if (shown) shown.scrollTop = shown.scrollHeight;
  }, [lines]);

  const submit = () => {
    const line = command.trim();
    if (!line) return;
    run.mutate(line, {
      onSuccess: (answer) => setLines((all) => [...all, { id: next.current++, command: answer.command, output: answer.output, refused: false }]),
      onError: (error) => setLines((all) => [...all, { id: next.current++, command: line, output: error.message, refused: true }]),
    });
    setCommand('');
  };

  if (unavailable !== null) {
    return <MonitorFailed screen="redisTerminal" reason={unavailable} />;
  }
  return (
    <Flex vertical gap={16} data-testid="monitor-redisTerminal">
      {!canRun && <Alert type="info" showIcon message={t('monitor.terminal.noPermission')} />}
      <Typography.Text type="secondary">{t('monitor.terminal.allowed', { list: RedisTerminalCommands.join(', ') })}</Typography.Text>
      <Card size="small">
        <pre ref={output} className={styles.terminalOutput} aria-live="polite" data-testid="monitor-terminal-output">
          {lines.length === 0 && <span>{t('monitor.terminal.empty')}</span>}
          {lines.map((line) => (
            <span key={line.id}>
              <span className={styles.prompt}>{'> '}</span>
              {line.command}
              {'\n'}
              <span className={line.refused ? styles.refused : undefined}>{line.output}</span>
              {'\n'}
            </span>
          ))}
        </pre>
      </Card>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          aria-label={t('monitor.terminal.placeholder')}
          placeholder={t('monitor.terminal.placeholder')}
          value={command}
          maxLength={512}
          disabled={!canRun || !ready}
          onChange={(event) => setCommand(event.target.value)}
          onPressEnter={submit}
          autoComplete="off"
          spellCheck={false}
        />
        <Button type="primary" onClick={submit} loading={run.isPending} disabled={!canRun || !ready}>
          {t('monitor.terminal.run')}
        </Button>
        <Button onClick={() => setLines([])}>{t('monitor.terminal.clear')}</Button>
      </Space.Compact>
    </Flex>
  );
}
