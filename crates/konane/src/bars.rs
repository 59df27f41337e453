//! A grouped bar chart of shares as a standalone SVG file, for figures the command line
//! measures and the docs show (`konane accuracy run --svg`).

use std::fmt::Write;

/// Bars of shares (0 to 1) in groups along the bottom, one colour a series, with an optional
/// mark per group for a baseline.
pub struct BarChart {
    /// The line above the chart.
    pub title: String,
    /// The groups' names, left to right.
    pub groups: Vec<String>,
    /// Each series' name (in the legend) and its share in every group.
    pub series: Vec<(String, Vec<f64>)>,
    /// A share per group drawn as a dashed mark across the group, with its name.
    pub baseline: Option<(String, Vec<f64>)>,
}

/// Colours of the series, told apart also without colour vision (light to dark).
const COLOURS: [&str; 5] = ["#e6b55c", "#c0712f", "#8a3a12", "#4a2008", "#2b1204"];

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 340.0;
const LEFT: f64 = 48.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 64.0;

impl BarChart {
    /// The chart as an SVG document.
    pub fn svg(&self) -> String {
        let plot_w = WIDTH - LEFT - RIGHT;
        let plot_h = HEIGHT - TOP - BOTTOM;
        let y = |share: f64| TOP + plot_h * (1.0 - share.clamp(0.0, 1.0));
        let group_w = plot_w / self.groups.len().max(1) as f64;
        let bar_w = group_w * 0.8 / self.series.len().max(1) as f64;
        let mut s = String::new();
        // Writing to a String cannot fail.
        let _ = writeln!(
            s,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" \
             width=\"{WIDTH}\" height=\"{HEIGHT}\" font-family=\"sans-serif\" font-size=\"12\">"
        );
        let _ = writeln!(
            s,
            "<rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"#fffdf8\"/>\n\
             <text x=\"{LEFT}\" y=\"22\" font-size=\"14\" font-weight=\"bold\">{}</text>",
            escape(&self.title)
        );
        for tick in 0..=4 {
            let share = f64::from(tick) / 4.0;
            let _ = writeln!(
                s,
                "<line x1=\"{LEFT}\" x2=\"{}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>\
                 <text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}%</text>",
                WIDTH - RIGHT,
                LEFT - 6.0,
                y(share) + 4.0,
                tick * 25,
                y = y(share)
            );
        }
        for (g, name) in self.groups.iter().enumerate() {
            let x0 = LEFT + group_w * g as f64 + group_w * 0.1;
            for (k, (_, shares)) in self.series.iter().enumerate() {
                let Some(&share) = shares.get(g) else {
                    continue;
                };
                let x = x0 + bar_w * k as f64;
                let _ = writeln!(
                    s,
                    "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\"/>\
                     <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"10\">{:.0}</text>",
                    y(share),
                    bar_w - 2.0,
                    y(0.0) - y(share),
                    COLOURS[k % COLOURS.len()],
                    x + (bar_w - 2.0) / 2.0,
                    y(share) - 3.0,
                    share * 100.0
                );
            }
            if let Some(&base) = self.baseline.as_ref().and_then(|(_, b)| b.get(g)) {
                let _ = writeln!(
                    s,
                    "<line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#222\" \
                     stroke-width=\"2\" stroke-dasharray=\"5 3\"/>",
                    x0 - 4.0,
                    x0 + group_w * 0.8 + 2.0,
                    y = y(base)
                );
            }
            let _ = writeln!(
                s,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                x0 + group_w * 0.4,
                y(0.0) + 16.0,
                escape(name)
            );
        }
        // The legend, in one row under the groups' names.
        let mut x = LEFT;
        let legend_y = HEIGHT - 18.0;
        for (k, (name, _)) in self.series.iter().enumerate() {
            let _ = writeln!(
                s,
                "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"12\" height=\"12\" fill=\"{}\"/>\
                 <text x=\"{:.1}\" y=\"{legend_y:.1}\">{}</text>",
                legend_y - 10.0,
                COLOURS[k % COLOURS.len()],
                x + 16.0,
                escape(name)
            );
            x += 24.0 + 7.0 * name.chars().count() as f64;
        }
        if let Some((name, _)) = &self.baseline {
            let _ = writeln!(
                s,
                "<line x1=\"{x:.1}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#222\" \
                 stroke-width=\"2\" stroke-dasharray=\"5 3\"/>\
                 <text x=\"{:.1}\" y=\"{legend_y:.1}\">{}</text>",
                x + 18.0,
                x + 24.0,
                escape(name),
                y = legend_y - 4.0
            );
        }
        s.push_str("</svg>\n");
        s
    }
}

/// Text made safe inside SVG markup.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bar_stands_as_high_as_its_share() {
        let chart = BarChart {
            title: "Kept <wins> & more".to_string(),
            groups: vec!["a".to_string(), "b".to_string()],
            series: vec![
                ("fast".to_string(), vec![0.5, 1.0]),
                ("slow".to_string(), vec![0.25, 0.0]),
            ],
            baseline: Some(("chance".to_string(), vec![0.4, 0.3])),
        };
        let svg = chart.svg();
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
        assert!(svg.contains("Kept &lt;wins&gt; &amp; more"), "{svg}");
        let plot_h = HEIGHT - TOP - BOTTOM;
        let heights: Vec<f64> = svg
            .lines()
            .filter(|l| l.starts_with("<rect x=") && !l.contains("width=\"12\""))
            .map(|l| {
                let h = l.split("height=\"").nth(1).unwrap();
                h[..h.find('"').unwrap()].parse().unwrap()
            })
            .collect();
        let want = [0.5, 0.25, 1.0, 0.0].map(|share| share * plot_h);
        assert_eq!(heights.len(), want.len(), "{svg}");
        for (h, w) in heights.iter().zip(want) {
            assert!((h - w).abs() < 0.11, "{h} for {w}: {svg}");
        }
        assert_eq!(
            svg.matches("stroke-dasharray").count(),
            3,
            "a mark a group, one in the legend"
        );
    }
}
