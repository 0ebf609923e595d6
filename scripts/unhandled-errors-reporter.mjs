// A vitest reporter that writes the run's unhandled errors to the file named by ISPS_UNHANDLED_ERRORS_FILE.
// vitest fails a run on an error no test caught even when every test passed, and its JSON report leaves such errors
// out; `npm test` prints these at the end of its output, where a truncated CI log still shows them.
import { writeFileSync } from 'node:fs';

export default class UnhandledErrorsReporter {
  onTestRunEnd(_testModules, unhandledErrors) {
    const file = process.env.ISPS_UNHANDLED_ERRORS_FILE;
    if (!file) return;
    const errors = unhandledErrors.map((error) => ({
      message: `${error.name ?? 'Error'}: ${error.message ?? String(error)}`,
      // the file that was running when it was thrown, which vitest names when it knows it
      testPath: error.VITEST_TEST_PATH ?? null,
      testName: error.VITEST_TEST_NAME ?? null,
      stack: String(error.stack ?? '').split('\n').slice(0, 6).join('\n'),
    }));
    writeFileSync(file, JSON.stringify(errors, null, 2));
  }
}
