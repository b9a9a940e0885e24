fn main() -> std::process::ExitCode {
    confluence_sim::app::main()
}
