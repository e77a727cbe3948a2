// Draws every <figure class="chart"> with Chart.js: the figure names the json_script element
// holding its numbers (data-chart), and holds a table of the same numbers, which the page
// shows until the chart is drawn. Colours come from the theme's CSS custom properties, so
// the charts are drawn again whenever the theme changes.
(() => {
  "use strict";

  function start() {
    // The builder's panel may be loaded more than once; one set of listeners is enough.
    if (window.cardsiteCharts || !window.Chart) return;
    const Chart = window.Chart;

    // Bars must stand out from the chart's background by 3:1 (WCAG, non-text contrast).
    const MIN_CONTRAST = 3;

    // Any CSS colour (hex, rgb(), a named colour...) as [r, g, b], read back from a canvas pixel
    // so that no colour syntax needs parsing here.
    const probe = document.createElement("canvas").getContext("2d", { willReadFrequently: true });
    function rgb(colour) {
      probe.clearRect(0, 0, 1, 1);
      probe.fillStyle = "#808080";
      probe.fillStyle = colour;
      probe.fillRect(0, 0, 1, 1);
      const [r, g, b] = probe.getImageData(0, 0, 1, 1).data;
      return [r, g, b];
    }

    function luminance([r, g, b]) {
      const linear = (c) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    }

    function contrast(a, b) {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (hi + 0.05) / (lo + 0.05);
    }

    // The colour, lightened on a dark background or darkened on a light one until it stands
    // out: a card game's dark Tier grey stays visible in the dark theme, and keeps its hue.
    function legible(colour, background) {
      const bg = rgb(background);
      const towards = luminance(bg) < 0.2 ? 255 : 0;
      let c = rgb(colour);
      for (let step = 0; step < 10 && contrast(c, bg) < MIN_CONTRAST; step += 1) {
        c = c.map((v) => Math.round(v + (towards - v) * 0.15));
      }
      return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
    }

    function theme() {
      const style = getComputedStyle(document.documentElement);
      const token = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
      return {
        ink: token("--ink", "#1d2330"),
        muted: token("--muted", "#5d6575"),
        line: token("--line", "#dfe3ea"),
        surface: token("--surface", "#ffffff"),
        accent: token("--accent", "#2f5fb3"),
        // A second series without a colour of its own (deck B when comparing two decks).
        second: token("--series-2", "#b0520c"),
        font: getComputedStyle(document.body).fontFamily,
      };
    }

    function shown(value, unit) {
      if (unit === "share") return `${(value * 100).toFixed(1)}%`;
      if (unit === "count") return value.toLocaleString();
      return value.toLocaleString(undefined, { maximumFractionDigits: 2 });
    }

    // A long name as lines of about 14 characters: the side axis may take at most half a
    // small chart's width, and Chart.js cuts what does not fit.
    function wrapped(label) {
      const lines = [];
      for (const word of String(label).split(" ")) {
        const last = lines.length - 1;
        if (last >= 0 && lines[last].length + word.length < 14) lines[last] += ` ${word}`;
        else lines.push(word);
      }
      return lines.length > 1 ? lines : label;
    }

    function options(data, colours) {
      const share = data.unit === "share";
      // Named categories (types, factions) lie along the side, where long names fit.
      const across = !data.numbered;
      const text = { color: colours.ink, font: { family: colours.font, size: 12 } };
      const title = (label) => ({
        display: true,
        text: label,
        color: colours.muted,
        font: { family: colours.font, size: 12 },
      });
      const categories = {
        title: title(data.x),
        grid: { display: false },
        border: { color: colours.line },
        // Numbers along the bottom are thinned rather than cut or turned: every label shown
        // is whole ("54", never "5"), with room between them.
        ticks: { ...text, autoSkip: !across, autoSkipPadding: 8, maxRotation: 0 },
      };
      const values = {
        beginAtZero: true,
        title: title(data.y),
        grid: { color: colours.line },
        border: { display: false },
        ticks: {
          ...text,
          ...(data.unit === "count" ? { precision: 0 } : {}),
          // Ticks fall on round numbers: a whole percentage is enough there.
          callback: (value) =>
            share ? `${Math.round(Number(value) * 100)}%` : shown(Number(value), data.unit),
        },
        // Shares run 0 to 100% whatever the data; other values get headroom above the tallest
        // bar (or spread), so that no bar ends flush with the top of the chart.
        ...(share ? { min: 0, max: 1 } : { grace: "5%" }),
      };
      return {
        indexAxis: across ? "y" : "x",
        responsive: true,
        maintainAspectRatio: false,
        // Drawn at once, never grown: the frames of a growing chart are bars moved off their
        // baseline and cut at the top of the chart (the "flat tops" a screenshot, a print or a
        // tab opened in the background caught), and a chart of results is read, not watched.
        animation: false,
        // Room at the ends for the first and last labels, which are centred on their bars.
        layout: { padding: { left: 4, right: 10 } },
        interaction: { mode: "index", intersect: false, axis: across ? "y" : "x" },
        scales: across ? { y: categories, x: values } : { x: categories, y: values },
        plugins: {
          legend: {
            display: data.series.length > 1 || Boolean(data.spread),
            // The band is one entry, "Mean ± 1 sd", for its two edges.
            labels: {
              ...text,
              boxWidth: 12,
              boxHeight: 12,
              filter: (item, chart) => !chart.datasets[item.datasetIndex].spreadLower,
            },
          },
          tooltip: {
            // The spread's lines are told in the mean's line ("2.31 ± 0.84"), not on their own.
            filter: (item) => item.dataset.spreadOf === undefined,
            backgroundColor: colours.ink,
            titleColor: colours.surface,
            bodyColor: colours.surface,
            titleFont: { family: colours.font, weight: "bold" },
            bodyFont: { family: colours.font },
            callbacks: {
              title: (items) => `${data.x}: ${data.labels[items[0].dataIndex]}`,
              label: (item) =>
                ` ${item.dataset.label}: ${shown(item.raw, data.unit)}` +
                (data.spread ? ` ± ${shown(data.spread[item.dataIndex], data.unit)}` : ""),
            },
          },
        },
      };
    }

    function draw(figure, colours) {
      const canvas = figure.querySelector("canvas");
      const source = document.getElementById(figure.dataset.chart);
      if (!canvas || !source) return;
      Chart.getChart(canvas)?.destroy();
      const data = JSON.parse(source.textContent);
      if (!data.numbered) {
        // A row per category: tall enough for each name, however many there are.
        const legend = data.series.length > 1 ? 24 : 0;
        const lines = data.labels.map((l) => [wrapped(l)].flat().length).reduce((a, b) => a + b, 0);
        figure.querySelector(".chart-canvas").style.height =
          `${data.labels.length * 14 + lines * 14 + 64 + legend}px`;
      }
      new Chart(canvas, {
        type: "bar",
        data: {
          labels: data.numbered ? data.labels : data.labels.map(wrapped),
          datasets: [...bars(data, colours), ...band(data, colours)],
        },
        options: options(data, colours),
      });
      figure.classList.add("drawn");
    }

    // A mean's spread, mean - sd to mean + sd, as a shaded band between two lines over the
    // bars: Chart.js's own line and filler, rather than a plugin for error bars.
    function band(data, colours) {
      if (!data.spread) return [];
      const means = data.series[0].values;
      const edge = legible(colours.ink, colours.surface);
      const line = (label, values, fill) => ({
        type: "line",
        label,
        data: values,
        spreadOf: 0,
        borderColor: edge,
        borderWidth: 1,
        borderDash: [4, 3],
        backgroundColor: `${edge.replace("rgb(", "rgba(").replace(")", ", 0.15)")}`,
        pointRadius: 0,
        fill,
        order: 0,
      });
      return [
        line("Mean ± 1 sd", means.map((m, i) => m + data.spread[i]), "+1"),
        {
          ...line("Mean − 1 sd", means.map((m, i) => Math.max(0, m - data.spread[i])), false),
          spreadLower: true,
        },
      ];
    }

    function bars(data, colours) {
      return data.series.map((s, i) => {
        const fallback = i % 2 ? colours.second : colours.accent;
        const colour = legible(s.colour || fallback, colours.surface);
        return {
          label: s.name,
          data: s.values,
          backgroundColor: colour,
          hoverBackgroundColor: colour,
          borderRadius: 3,
          borderSkipped: "start",
          maxBarThickness: 40,
          order: 1,
        };
      });
    }

    // Every chart on the page not yet drawn (or every one, when `again`).
    function drawAll(again = false) {
      // A chart whose canvas left the page (the builder's panel swapped out) is let go, or
      // Chart.js would keep it, and its resize observer, for as long as the page is open.
      for (const chart of Object.values(Chart.instances)) {
        if (!chart.canvas.isConnected) chart.destroy();
      }
      const colours = theme();
      for (const figure of document.querySelectorAll("figure.chart[data-chart]")) {
        const canvas = figure.querySelector("canvas");
        if (again || !canvas || !Chart.getChart(canvas)) draw(figure, colours);
      }
    }

    const redraw = () => drawAll(true);
    window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", redraw);
    // A theme switch sets data-theme (or a class) on <html>.
    new MutationObserver(redraw).observe(document.documentElement, {
      attributes: true,
      attributeFilter: ["data-theme", "class"],
    });
    // New content (the builder's panel after an edit): draw what is not drawn yet, after the
    // browser has painted the swap, so the rows and counts a click changed show first and
    // the charts (tens of milliseconds of Chart.js) follow a frame later; one drawing for the
    // several events of a swap.
    let pending = 0;
    const drawSoon = () => {
      if (pending) return;
      pending = requestAnimationFrame(() =>
        setTimeout(() => {
          pending = 0;
          drawAll();
        }),
      );
    };
    document.addEventListener("htmx:load", drawSoon);
    document.addEventListener("htmx:afterSwap", drawSoon);
    document.addEventListener("htmx:afterSettle", drawSoon);

    window.cardsiteCharts = { drawAll };
    drawAll();
  }

  // Loaded from the page, Chart.js runs first (both scripts are deferred). Inserted later (by
  // htmx), scripts run as they arrive, so this may come first and must wait for it.
  if (window.Chart) {
    start();
  } else {
    document
      .querySelector('script[src*="vendor/chartjs/"]')
      ?.addEventListener("load", start, { once: true });
  }
})();
