# Sourced by installers/install.sh. choose_model NOSPIN [--choose|--no-choose]: the model by
# measurement, `NOSPIN model choose --setup --apply`. Where a CUDA GPU or enough cores could run
# the 1.5B within the typing targets (app/model_choice.py decides) it installs the 1.5B with the
# venv's pip and keeps the largest model that meets them; elsewhere it says in one line why it
# keeps the 0.5B. --choose (or NOSPIN_CHOOSE=1) measures whatever the machine, --no-choose
# skips it. It never fails the set-up: what goes wrong keeps the 0.5B and says why. Its JSON
# report stays off the terminal; its lines go to stderr.
choose_model() {
  local nospin="$1" flag="${2:-}"
  local args=(model choose --setup --apply)
  case "$flag" in
    "") ;;
    --choose) args+=(--force) ;;
    --no-choose) return 0 ;;
    *) echo "choose_model: unknown option: $flag" >&2; return 2 ;;
  esac
  "$nospin" "${args[@]}" >/dev/null \
    || echo "the model choice failed: the 0.5B is kept (nospin model choose --apply)" >&2
}
