// The page grid: controls | plots | summary on wide screens, one column on phones.
// No data logic here.
import { Legend } from '../plots/Legend';
import { Overview } from '../plots/Overview';
import { PlotStack } from '../plots/PlotStack';
import { ModePanel } from '../panels/Competition';
import { Controls } from '../panels/Controls';
import { LessonPanel } from '../panels/LessonPanel';
import { Notices } from '../panels/Notices';
import { Playback } from '../panels/Playback';
import { PresetMenu } from '../panels/PresetMenu';
import { SharePanel } from '../panels/SharePanel';
import { ExportPanel } from '../panels/ExportPanel';
import { PrintHeader, PrintLesson } from '../panels/PrintHandout';
import { Status } from '../panels/Status';
import { Summary } from '../panels/CompetitionSummary';
import { ViewControls } from '../panels/ViewControls';
import { Inspector } from '../explain/Inspector';
import { ExplainKeys } from '../explain/Keyboard';
import { HiddenWhilePractising, PracticeEntry, PracticePanel } from '../practice/PracticePanel';
import { ProjectorMode } from './Projector';
import { SheetPanel, SheetPrintAnswers, SheetPrintQuestions } from '../sheet/SheetPanel';

/** The whole page. */
export function App() {
  return (
    <div className="app">
      <a className="skip-link" href="#plots">
        Skip to the plots
      </a>
      <header className="topbar">
        <div className="brand">
          <h1>cwndlab</h1>
          <p>TCP congestion control, side by side</p>
        </div>
        <PresetMenu />
        <Playback />
      </header>
      <PrintHeader />
      <SheetPrintQuestions />
      <Notices />
      <main className="layout">
        <aside className="panel controls-panel" aria-label="Scenario">
          <ModePanel />
          <Controls />
        </aside>
        <section className="panel plots-panel" id="plots" aria-label="Plots" tabIndex={-1}>
          <ViewControls />
          <Legend />
          <HiddenWhilePractising>
            <Overview />
          </HiddenWhilePractising>
          <PlotStack />
        </section>
        <aside className="panel summary-panel" aria-label="Results">
          <HiddenWhilePractising>
            <Summary />
            <LessonPanel />
          </HiddenWhilePractising>
          <Status />
          <SharePanel />
          <HiddenWhilePractising>
            <ExportPanel />
            <SheetPanel />
          </HiddenWhilePractising>
          <PracticeEntry />
        </aside>
        <PracticePanel />
        <HiddenWhilePractising>
          <Inspector />
        </HiddenWhilePractising>
      </main>
      <PrintLesson />
      <SheetPrintAnswers />
      <ExplainKeys />
      <ProjectorMode />
      <footer className="footer">
        <p>
          Every run is computed in your browser by a deterministic simulator (Rust, WebAssembly): the same link gives
          the same numbers anywhere.
        </p>
      </footer>
    </div>
  );
}
