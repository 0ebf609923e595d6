import { ReportScreenPage } from '../report-screen.tsx';

/** The access reports (menu report.access). */
export default function AccessReports() {
  return <ReportScreenPage screen="access" />;
}
