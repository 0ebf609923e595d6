import { ReportScreenPage } from '../report-screen.tsx';

/** The alarm reports (menu report.alarm). */
export default function AlarmReports() {
  return <ReportScreenPage screen="alarm" />;
}
