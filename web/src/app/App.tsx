// The page grid: controls | plots | summary and tools on wide screens; on laptops the summary
// above the plots and the tools below them; one column on phones.
// No data logic here.
import { Legend } from '../plots/Legend';
import { Overview } from '../plots/Overview';
import { PlotStack } from '../plots/PlotStack';
import { ModePanel } from '../panels/Competition';
import { Controls } from '../panels/Controls';
import { LessonPanel } from '../panels/LessonPanel';
import { Notices } from '../panels/Notices';
import { Playback } from '../panels/Playback';
import { PathDock } from '../panels/PathDock';
import { PresetMenu } from '../panels/PresetMenu';
import { CourseBar } from '../course/CourseBar';
import { SharePanel } from '../panels/SharePanel';
import { Status } from '../panels/Status';
import { Summary } from '../panels/CompetitionSummary';
import { ViewControls } from '../panels/ViewControls';
import { Inspector } from '../explain/Inspector';
import { ExplainKeys } from '../explain/Keyboard';
import { HiddenWhilePractising, PracticeEntry, PracticePanel } from '../practice/PracticePanel';
import { ProjectorMode } from './Projector';
import { Suspense } from 'react';
import { loadFullEngine } from '../engine/wasmMain';
import { deferred, DeferredPart, DeferredSummary } from './Deferred';
import { ExportShell } from '../panels/ExportShell';
import { AfterPaint } from './AfterPaint';
import { HydratedLater } from './HydratedLater';
import { SweepShell } from '../sweep/SweepShell';
// Stylesheets: main.tsx imports every one with the page's (one stylesheet, inlined into the
// HTML), the sheet panel's too, so its stand-in has the same size.

// Loaded after the first view (Deferred.tsx); the export panel and the sheet also need the
// full engine (wasmMain.ts), fetched with them.
const ExportBody = deferred(() =>
  Promise.all([import('../panels/ExportPanel'), loadFullEngine()]).then(([m]) => m.ExportBody),
);
const sheetModule = () => Promise.all([import('../sheet/SheetPanel'), loadFullEngine()]).then(([m]) => m);
const SheetPanel = deferred(() => sheetModule().then((m) => m.SheetPanel));
const SheetPrintQuestions = deferred(() => sheetModule().then((m) => m.SheetPrintQuestions));
const SheetPrintAnswers = deferred(() => sheetModule().then((m) => m.SheetPrintAnswers));
// The sweep view (web/src/sweep): its worker and theory lines need the full engine.
const SweepBody = deferred(() =>
  Promise.all([import('../sweep/SweepPanel'), loadFullEngine()]).then(([m]) => m.SweepBody),
);
const PrintHeader = deferred(() => import('../panels/PrintHandout').then((m) => m.PrintHeader));
const PrintLesson = deferred(() => import('../panels/PrintHandout').then((m) => m.PrintLesson));

/** The exercise sheet's stand-in until it has loaded. */
const sheetStandIn = (
  <section className="sheet-panel" aria-label="Exercise sheet">
    <DeferredSummary name="sheet" summary="Exercise sheet" />
  </section>
);

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
        <HydratedLater>
          <PresetMenu />
        </HydratedLater>
        <HydratedLater>
          <CourseBar />
        </HydratedLater>
        <HydratedLater>
          <Playback />
        </HydratedLater>
      </header>
      <Suspense fallback={null}>
        <DeferredPart fallback={null}>
          <PrintHeader />
          <SheetPrintQuestions />
        </DeferredPart>
      </Suspense>
      <Notices />
      <main className="layout">
        <aside className="panel controls-panel" aria-label="Scenario">
          <AfterPaint>
            <ModePanel />
            <Controls />
          </AfterPaint>
        </aside>
        <section className="panel plots-panel" id="plots" aria-label="Plots" tabIndex={-1}>
          <AfterPaint>
            <ViewControls />
            <HiddenWhilePractising>
              <SweepShell Body={SweepBody} />
            </HiddenWhilePractising>
            <Legend />
            <HiddenWhilePractising>
              <Overview />
            </HiddenWhilePractising>
            <PlotStack />
            <PathDock />
          </AfterPaint>
        </section>
        <HydratedLater>
          <aside className="panel summary-panel" aria-label="Results">
            <HiddenWhilePractising>
              <Summary />
              <LessonPanel />
            </HiddenWhilePractising>
            <Status />
            <SharePanel />
          </aside>
        </HydratedLater>
        {/* What a class does with a run: take it elsewhere, a sheet, practice. After the plots
            on laptops and phones (the plots come first), under the summary on wide screens. */}
        <aside className="panel tools-panel" aria-label="Export, exercise sheet and practice">
          <HiddenWhilePractising>
            <ExportShell Body={ExportBody} />
            <Suspense fallback={sheetStandIn}>
              <DeferredPart fallback={sheetStandIn}>
                <SheetPanel />
              </DeferredPart>
            </Suspense>
          </HiddenWhilePractising>
          <PracticeEntry />
        </aside>
        <PracticePanel />
        <HydratedLater>
          <HiddenWhilePractising>
            <Inspector />
          </HiddenWhilePractising>
        </HydratedLater>
      </main>
      <Suspense fallback={null}>
        <DeferredPart fallback={null}>
          <PrintLesson />
          <SheetPrintAnswers />
        </DeferredPart>
      </Suspense>
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
