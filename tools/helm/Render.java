/*
 * Renders a Helm chart with Helm's own engine (helm-java: Helm's Go library, helm.sh/helm/v3,
 * called through JNA), several value sets in one JVM. Run by tools/helm/helm.sh; Java's
 * single-file launcher compiles it.
 *
 *   Render <chart> <outDir> <releaseName> <namespace> <kubeVersion> <case>...
 *   case = <name>[:<valuesFile>[,<valuesFile>...]][;<key>=<value>...]
 *
 * Writes <outDir>/<name>.yaml with what `helm template` prints: the release's manifests, then its
 * hooks. Or <outDir>/<name>.error with Helm's message when rendering fails (e.g. a chart's `fail`).
 *
 * helm-java's template command returns the release manifest only, without hooks. The hooks (the
 * templates annotated helm.sh/hook) are rendered by a client-only dry-run install of a scratch copy
 * of the chart whose NOTES.txt includes each of them: the same engine, values and release, so the
 * same text `helm template` would print for them.
 */
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.InstallCommand;
import com.marcnuri.helm.TemplateCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

public class Render {
  public static void main(String[] args) throws Exception {
    if (args.length < 6) {
      System.err.println("usage: Render <chart> <outDir> <release> <namespace> <kubeVersion> <name>[:<values>,...][;k=v...]...");
      System.exit(64);
    }
    Path chart = Paths.get(args[0]).toAbsolutePath();
    Path out = Paths.get(args[1]);
    String release = args[2], namespace = args[3], kubeVersion = args[4];
    Files.createDirectories(out);
    Path hooksChart = hooksChart(chart);
    System.out.println("helm " + Helm.version().call());
    for (int i = 5; i < args.length; i++) {
      String[] parts = args[i].split(";");
      String[] head = parts[0].split(":", 2);
      String name = head[0];
      List<Path> files = new ArrayList<>();
      if (head.length > 1 && !head[1].isEmpty()) {
        for (String file : head[1].split(",")) files.add(Paths.get(file).toAbsolutePath());
      }
      TemplateCommand template = new Helm(chart).template().withName(release).withNamespace(namespace).withKubeVersion(kubeVersion);
      InstallCommand hooks = new Helm(hooksChart).install().withName(release).withNamespace(namespace).withKubeVersion(kubeVersion).clientOnly().dryRun();
      for (Path f : files) {
        template = template.withValuesFile(f);
        hooks = hooks.withValuesFile(f);
      }
      for (int j = 1; j < parts.length; j++) {
        String[] kv = parts[j].split("=", 2);
        template = template.set(kv[0], kv.length > 1 ? kv[1] : "");
        hooks = hooks.set(kv[0], kv.length > 1 ? kv[1] : "");
      }
      Files.deleteIfExists(out.resolve(name + ".yaml"));
      Files.deleteIfExists(out.resolve(name + ".error"));
      try {
        String manifests = template.call();
        String report = hooks.call().getOutput();
        int notes = report.indexOf("NOTES:\n");
        String hookManifests = notes < 0 ? "" : report.substring(notes + "NOTES:\n".length());
        Files.writeString(out.resolve(name + ".yaml"), manifests.strip() + "\n" + hookManifests.strip() + "\n");
        System.out.println(name + ": rendered");
      } catch (RuntimeException e) {
        Files.writeString(out.resolve(name + ".error"), String.valueOf(e.getMessage()));
        System.out.println(name + ": failed");
      }
    }
    try (Stream<Path> walk = Files.walk(hooksChart.getParent())) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
    }
  }

  /** A scratch copy of the chart whose NOTES.txt renders every hook template. */
  private static Path hooksChart(Path chart) throws IOException {
    Path copy = Files.createTempDirectory("helm-hooks-").resolve(chart.getFileName());
    List<Path> sources;
    try (Stream<Path> walk = Files.walk(chart)) {
      sources = walk.toList();
    }
    for (Path src : sources) {
      Path dst = copy.resolve(chart.relativize(src).toString());
      if (Files.isDirectory(src)) {
        Files.createDirectories(dst);
        continue;
      }
      Files.copy(src, dst); // follows links: files/alerts.yml becomes the file it points to
    }
    StringBuilder tpl = new StringBuilder();
    try (Stream<Path> walk = Files.list(chart.resolve("templates"))) {
      for (Path src : walk.sorted().toList()) {
        String file = src.getFileName().toString();
        if (!file.endsWith(".yaml") || !Files.readString(src).contains("helm.sh/hook:")) continue;
        tpl.append("{{- with include (print .Template.BasePath \"/").append(file).append("\") . }}{{ if trim . }}\n")
            .append("---\n# Source: ").append(chart.getFileName()).append("/templates/").append(file).append("\n")
            .append("{{ trim . }}\n{{ end }}{{ end }}\n");
      }
    }
    Files.writeString(copy.resolve("templates/NOTES.txt"), tpl.toString());
    return copy;
  }
}
