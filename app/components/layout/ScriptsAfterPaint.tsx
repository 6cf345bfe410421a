import { Scripts } from "@remix-run/react";
import { Children, cloneElement, Fragment, isValidElement, type ReactElement, type ReactNode } from "react";

/** Marks the inert copies of Remix's script tags until the page's first paint (decision 132). */
export const AFTER_PAINT_ATTRIBUTE = "data-tras-el-pintado";

/** Longest the page waits for its main image before starting JavaScript anyway. */
export const HERO_WAIT_MS = 2_500;

/**
 * Runs inline at the end of the body. It waits until the page's main image
 * (the one marked `fetchpriority="high"`) has been painted, then puts Remix's
 * module preloads and module script back where the server wrote them, so the
 * browser only now downloads and runs the JavaScript, and removes itself so
 * hydration sees the DOM the client renders.
 *
 * "Painted" is the browser's own Element Timing entry for that image (its
 * `elementtiming` attribute) where it reports one (Chromium); elsewhere, the
 * image decoded and two frames later (a frame reaches the screen a little after its callbacks run). Never
 * longer than `HERO_WAIT_MS`; a page without such an image waits for its first
 * frames only, and a hidden page (a background tab paints nothing) starts at once.
 */
export const AFTER_PAINT_LOADER = !import.meta.env.SSR
  ? "" // only the server writes it: the browser bundle leaves the text out
  : `(function(){
var me=document.currentScript,done=false;
function run(){if(done)return;done=true;if(me)me.remove();document.querySelectorAll("template[${AFTER_PAINT_ATTRIBUTE}]").forEach(function(t){t.replaceWith(document.importNode(t.content,true))})}
function frames(){requestAnimationFrame(function(){requestAnimationFrame(function(){setTimeout(run,0)})})}
if(document.visibilityState==="hidden")return run();
var hero=document.querySelector('img[fetchpriority="high"]');
if(!hero)return frames();
setTimeout(run,${HERO_WAIT_MS});
var types=window.PerformanceObserver&&PerformanceObserver.supportedEntryTypes||[];
if(types.indexOf("element")>=0&&hero.getAttribute("elementtiming")){new PerformanceObserver(function(list,observer){list.getEntries().forEach(function(e){if(e.element===hero){observer.disconnect();setTimeout(run,0)}})}).observe({type:"element",buffered:true});return}
var loaded=hero.complete?Promise.resolve():new Promise(function(r){hero.addEventListener("load",r);hero.addEventListener("error",r)});
loaded.then(function(){return hero.decode()}).then(frames,frames);
})();`.replace(/\n/g, "");

/** Host elements of a tree of fragments, in document order. */
function hostElements(node: ReactNode): ReactElement[] {
  const out: ReactElement[] = [];
  Children.forEach(node, (child) => {
    if (!isValidElement(child)) return;
    if (child.type === Fragment) out.push(...hostElements((child.props as { children?: ReactNode }).children));
    else out.push(child);
  });
  return out;
}

/**
 * Remix's `<Scripts />`, with its JavaScript held back until the first paint.
 *
 * On a cheap phone the module preloads compete with the event's image for the
 * connection, and evaluating React and hydrating are hundreds of milliseconds
 * of CPU that hold back the paint of the image the buyer came to see (decision 132:
 * LCP ≤ 1,8 s). Every page works without JavaScript (forms post), so the
 * server writes the preloads and the module script inside `<template>`s, which
 * the browser neither fetches nor runs, and `AFTER_PAINT_LOADER` restores them
 * after the paint. The context script stays live: the streamed loader data
 * that follows it writes into the stream it opens.
 *
 * On the client this renders exactly `<Scripts />`: by the time hydration
 * runs, the loader has put the DOM back as `<Scripts />` renders it.
 */
export function ScriptsAfterPaint({ nonce }: { nonce?: string }) {
  // Scripts is called as a function (its hooks become this component's) to rearrange the elements it returns.
  const scripts = Scripts({ nonce });
  // import.meta.env.SSR is false in the browser build, so what follows is left out of every page's JavaScript.
  if (!import.meta.env.SSR || typeof document !== "undefined" || !scripts) return scripts;
  const elements = hostElements(scripts);
  const isModuleScript = (el: ReactElement) => el.type === "script" && (el.props as { type?: string }).type === "module";
  const preloads = elements.filter((el) => el.type === "link").map((el, i) => cloneElement(el, { key: i }));
  const moduleScripts = elements.filter(isModuleScript);
  // Anything but what this expects (Remix changed its output): the scripts as they come, never a page that cannot hydrate.
  if (moduleScripts.length !== 1 || elements.findIndex(isModuleScript) < preloads.length) return scripts;
  const rest = elements.filter((el) => el.type !== "link" && !isModuleScript(el));
  const [contextScript, ...others] = rest;
  return (
    <>
      <template {...{ [AFTER_PAINT_ATTRIBUTE]: "" }}>{preloads}</template>
      {contextScript}
      <template {...{ [AFTER_PAINT_ATTRIBUTE]: "" }}>{moduleScripts[0]}</template>
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: AFTER_PAINT_LOADER }} />
      {others}
    </>
  );
}
